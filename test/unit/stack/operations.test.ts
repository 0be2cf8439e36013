import { describe, expect, it } from 'vitest';
import { alarms, lambdaQuery, MAX_EXPRESSION, type OperationsSettings } from '../../../stack/operations.ts';

/** The alarms with a topic and with long names; test/stack/template.test.ts checks the packaged defaults. */
const settings = (changes: Partial<OperationsSettings> = {}): OperationsSettings => ({
  service: 'open-exchange',
  stage: 'prod',
  alarmTopicArn: '',
  functions: [
    { name: 'nodes', timeout: 29 },
    { name: 'orgs', timeout: 29 },
    { name: 'signalsDispatch', timeout: 30 },
    { name: 'agbotRound', timeout: 60 },
  ],
  ...changes,
});

describe('the alarms', () => {
  it('notify the topic of the stage parameter, on ALARM and on OK', () => {
    const topic = 'arn:aws:sns:us-east-1:123456789012:exchange-alarms';
    for (const [id, alarm] of Object.entries(alarms(settings({ alarmTopicArn: topic })))) {
      expect(alarm.Properties.AlarmActions, id).toEqual([topic]);
      expect(alarm.Properties.OKActions, id).toEqual([topic]);
      expect(alarm.Properties.ActionsEnabled, id).toBe(true);
    }
  });

  it('watch the duration of the functions that share the most common timeout, at 80% of it', () => {
    const duration = alarms(settings()).LambdaDurationAlarm?.Properties ?? {};
    expect(duration.Threshold).toBe(23_200);
    const [query] = duration.Metrics as { Expression: string }[];
    expect(query?.Expression).toBe(
      `SELECT MAX(Duration) FROM SCHEMA("AWS/Lambda", FunctionName) WHERE FunctionName = 'open-exchange-prod-nodes' OR FunctionName = 'open-exchange-prod-orgs'`,
    );
  });

  it('refuse a query longer than CloudWatch takes, saying what to do', () => {
    const many = Array.from({ length: 60 }, (_, i) => `function${i}`);
    expect(() => lambdaQuery(settings(), 'SUM', 'Errors', many)).toThrow(
      new RegExp(`over CloudWatch's ${MAX_EXPRESSION}: a shorter stage name, or split the alarm`),
    );
  });
});
