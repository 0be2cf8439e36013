/**
 * Node management policies and statuses as upstream's `hzn` prints and sends them: Go structs
 * marshalled in field order, `omitempty` fields left out when empty, nil lists as `null`
 * (open-horizon/anax `exchangecommon/node_management_policy.go`, `node_management_status.go`).
 */
type Json = Record<string, unknown>;

const list = (value: unknown): unknown[] | null => (Array.isArray(value) ? value : null);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A property as Go's externalpolicy.Property: name, value, type (omitted when empty). */
const property = (p: unknown) => {
  const { name, value, type } = (p ?? {}) as Json;
  return { name: text(name), value: value ?? null, ...(text(type) ? { type } : {}) };
};

/** An NMP as ExchangeNodeManagementPolicy marshals it (`hzn exchange nmp list -l`, and the bodies hzn sends). */
export function goNmp(nmp: Json): Json {
  const upgrade = nmp.agentUpgradePolicy as Json | null | undefined;
  return {
    ...(text(nmp.owner) ? { owner: nmp.owner } : {}),
    label: text(nmp.label),
    description: text(nmp.description),
    constraints: list(nmp.constraints),
    properties: list(nmp.properties)?.map(property) ?? null,
    patterns: list(nmp.patterns),
    enabled: nmp.enabled === true,
    start: text(nmp.start),
    startWindow: typeof nmp.startWindow === 'number' ? nmp.startWindow : 0,
    ...(upgrade
      ? {
          agentUpgradePolicy: {
            manifest: text(upgrade.manifest),
            allowDowngrade: upgrade.allowDowngrade === true,
          },
        }
      : {}),
    ...(text(nmp.lastUpdated) ? { lastUpdated: nmp.lastUpdated } : {}),
    ...(text(nmp.created) ? { created: nmp.created } : {}),
  };
}

/** A status as NodeManagementPolicyStatus marshals it (what the Exchange's GET holds, re-sent by `reset`). */
export function goStatus(status: Json): Json {
  const s = (status.agentUpgradePolicyStatus ?? {}) as Json;
  const v = (s.upgradedVersions ?? {}) as Json;
  return {
    agentUpgradePolicyStatus: {
      scheduledTime: text(s.scheduledTime),
      ...(text(s.startTime) ? { startTime: s.startTime } : {}),
      ...(text(s.endTime) ? { endTime: s.endTime } : {}),
      upgradedVersions: {
        softwareVersion: text(v.softwareVersion),
        certVersion: text(v.certVersion),
        configVersion: text(v.configVersion),
      },
      status: text(s.status),
      ...(text(s.errorMessage) ? { errorMessage: s.errorMessage } : {}),
    },
  };
}

/** The status string of a status object (anax's Status()). */
export const statusOf = (status: unknown): string =>
  text(
    ((status ?? {}) as Json).agentUpgradePolicyStatus &&
      ((status as Json).agentUpgradePolicyStatus as Json).status,
  );

/** The template `hzn exchange nmp new` prints (upstream's, word for word). */
export const NMP_TEMPLATE = [
  '{',
  '  "label": "",                               /* A short description of the policy. */',
  '  "description": "",                         /* A much longer description of the policy. */',
  '  "constraints": [                           /* A list of constraint expressions of the form <property name> <operator> <property value>, */',
  '    "myproperty == myvalue"                  /* separated by boolean operators AND (&&) or OR (||).*/',
  '  ],',
  '  "properties": [                            /* A list of policy properties that describe this policy. */',
  '    {',
  '      "name": "",',
  '      "value": null',
  '    }',
  '  ],',
  '  "patterns": [                              /* This policy applies to nodes using one of these patterns. */',
  '    ""',
  '  ],',
  '  "enabled": false,                          /* Is this policy enabled or disabled. */',
  '  "start": "<RFC3339 timestamp> | now",      /* When to start an upgrade, default "now". */',
  '  "startWindow": 0,                          /* Enable agents to randomize upgrade start time within start + startWindow seconds, default 0. */',
  '  "agentUpgradePolicy": {                    /* Assertions on how the agent should update itself. */',
  '    "manifest": "",                          /* The manifest file containing the software, config and cert files to upgrade. */',
  '    "allowDowngrade": false                  /* Is this policy allowed to perform a downgrade to a previous version. */',
  '  }',
  '}',
];
