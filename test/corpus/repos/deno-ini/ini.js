/** An INI text as { section: { key: value } }; keys before any section go under "". */
export function parseIni(text) {
  const out = { '': {} };
  let section = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      section = line.slice(1, -1).trim();
      out[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[section][line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}
