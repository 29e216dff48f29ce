"""docs/python.md runs: every ```python block, in order, in one namespace, in an empty folder.
A block marked `python data` needs the Siconos data folder (skipped, saying so, without it).
Names given to the blocks: DATA (the data folder), CONEBENCH (the CLI)."""
import contextlib
import io
import os
import re
import sys
import tempfile
import unittest

from support import BIN, DATA, TREE

DOC = os.path.join(TREE, "docs", "python.md")
BLOCK = re.compile(r"^```python([^\n]*)\n(.*?)^```$", re.S | re.M)
MARKS = ("", "data")


def blocks():
    with open(DOC, encoding="utf-8") as f:
        return [(m.group(1).strip(), m.group(2)) for m in BLOCK.finditer(f.read())]


class Guide(unittest.TestCase):
    def test_every_block_runs(self):
        found = blocks()
        self.assertGreaterEqual(len(found), 9, "docs/python.md lost its blocks")
        env = {"DATA": DATA, "CONEBENCH": BIN, "__name__": "docs_python"}
        ran = 0
        with tempfile.TemporaryDirectory() as tmp:
            cwd = os.getcwd()
            os.chdir(tmp)
            try:
                for i, (mark, code) in enumerate(found, 1):
                    self.assertIn(mark, MARKS, "block %d: unknown mark %r" % (i, mark))
                    if mark == "data" and DATA is None:
                        print("docs/python.md block %d: skipped: no Siconos data folder" % i,
                              file=sys.stderr)
                        continue
                    out = io.StringIO()
                    with contextlib.redirect_stdout(out):
                        exec(compile(code, "docs/python.md block %d" % i, "exec"), env)
                    self.assertTrue(out.getvalue(), "block %d printed nothing" % i)
                    ran += 1
            finally:
                os.chdir(cwd)
        self.assertGreaterEqual(ran, len(found) - 1)


if __name__ == "__main__":
    unittest.main()
