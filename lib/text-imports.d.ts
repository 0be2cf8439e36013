/** A file imported as its text: `import script from './agent-install.sh?raw'` (lib/device/agent-install.ts). */
declare module '*.sh?raw' {
  const text: string;
  export default text;
}
