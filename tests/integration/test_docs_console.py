"""Every console example in README.md and docs/ is run, and its output compared with what the page shows.

A fenced block tagged `console` is a transcript: each line starting with `$ ` is a command, and the lines up to
the next command are its output, exactly as the page shows it (trailing spaces ignored). A command with no
output shown must succeed (exit 0); a command whose output is shown must print exactly that (an error example
may exit 2, as the CLI does for bad input). Commands run the installed console scripts of this venv
(`.venv/bin/...` in the page is this venv's bin/) from an empty temporary directory with a clean environment,
as a user would. Blocks that start servers or install things are written as `sh` blocks and are not run here
(`make test-readme` runs the set-up commands on a fresh clone).
"""

from __future__ import annotations

import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import installed
import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```console[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    output: str

    def __str__(self) -> str:
        return f"{self.page}:{self.line}"


def examples(text: str, page: str) -> list[Example]:
    """The commands of every console block of a page, each with the output the page shows."""
    out: list[Example] = []
    for block in FENCE.finditer(text):
        first = text.count("\n", 0, block.start(1)) + 1
        command: str | None = None
        at = 0
        shown: list[str] = []
        for i, line in enumerate(block.group(1).splitlines()):
            if line.startswith("$ "):
                if command is not None:
                    out.append(Example(page, at, command, "\n".join(shown).rstrip("\n")))
                command, at, shown = line[2:], first + i, []
            elif command is not None:
                shown.append(line.rstrip())
        if command is not None:
            out.append(Example(page, at, command, "\n".join(shown).rstrip("\n")))
    return out


ALL = [e for p in PAGES for e in examples(p.read_text(encoding="utf-8"), str(p.relative_to(ROOT)))]


def test_the_parser_reads_commands_and_their_output() -> None:
    """The runner itself: two commands, the first with two lines of output, the second with none."""
    text = "x\n```console\n$ echo a; echo b\na\nb\n\n$ true\n```\n"
    got = examples(text, "p.md")
    assert [(e.line, e.command, e.output) for e in got] == [(3, "echo a; echo b", "a\nb"), (7, "true", "")]


def test_there_are_examples_to_run() -> None:
    assert len(ALL) >= 5, [str(e) for e in ALL]


@pytest.mark.parametrize("example", ALL, ids=str)
def test_console_example(example: Example) -> None:
    command = example.command.replace(".venv/bin/", f"{installed.BIN}/")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=installed.WORKDIR,
                          env=installed.clean_env({"PATH": f"{installed.BIN}:/usr/bin:/bin"}),
                          capture_output=True, text=True, timeout=120)
    printed = "\n".join(line.rstrip() for line in (done.stdout + done.stderr).rstrip("\n").splitlines())
    if not example.output:
        assert done.returncode == 0, f"{example}: `{example.command}` exited {done.returncode}:\n{printed}"
        return
    assert printed == example.output, f"{example}: `{example.command}` printed:\n{printed}"
