// The test command's whole environment. An allowlist, not a denylist: a secret added to booty's
// environment tomorrow still never reaches generated code.

export function safeEnv(home: string, parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return {
    PATH: parent.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    HOME: home,
    CI: '1',
    LANG: parent.LANG ?? 'C.UTF-8',
  };
}
