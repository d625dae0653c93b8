import { existsSync } from 'node:fs';
import path from 'node:path';

// pytest's JUnit report splits the node id `tests/test_x.py::TestA::test_b[p]` into a dotted
// classname (`tests.test_x.TestA`, the path with `/` as `.` and `.py` dropped) and a name
// (`test_b[p]`). xunit1 also writes the file, so the module part can be cut off exactly.

export interface PytestIdParts {
  /** `file` attribute (xunit1), repository-relative; absent in xunit2. */
  file: string | null;
  classname: string;
  name: string;
}

const dotted = (file: string) => file.replace(/\.py$/, '').split('/').join('.');

/** Without a file attribute: the longest classname prefix that is a .py file under cwd, else the
 * segments before the first capitalised one (classes are capitalised by pytest's convention). */
function guessFile(classname: string, cwd: string): { file: string; classes: string[] } {
  const parts = classname.split('.');
  for (let k = parts.length; k > 0; k--) {
    const file = `${parts.slice(0, k).join('/')}.py`;
    if (existsSync(path.join(cwd, file))) return { file, classes: parts.slice(k) };
  }
  const firstClass = parts.findIndex((p, i) => i > 0 && /^[A-Z]/.test(p));
  const k = firstClass < 0 ? parts.length : firstClass;
  return { file: `${parts.slice(0, k).join('/')}.py`, classes: parts.slice(k) };
}

export function pytestNodeId(parts: PytestIdParts, cwd: string): { id: string; file: string; name: string } {
  let file = parts.file;
  let classes: string[];
  if (file) {
    const module = dotted(file);
    classes =
      parts.classname === module
        ? []
        : parts.classname.startsWith(`${module}.`)
          ? parts.classname.slice(module.length + 1).split('.')
          : [];
  } else {
    ({ file, classes } = guessFile(parts.classname, cwd));
  }
  const bracket = parts.name.indexOf('[');
  return {
    id: [file, ...classes, parts.name].join('::'),
    file,
    name: bracket < 0 ? parts.name : parts.name.slice(0, bracket),
  };
}

/** A collection error names the module (`tests.test_bad`); its file, when xunit1 did not say. */
export function collectedFile(parts: PytestIdParts): string {
  return parts.file ?? `${parts.name.split('.').join('/')}.py`;
}
