#!/usr/bin/env python3
"""Turns the published sources of rayon and rayon-core into a test package for prorata.

Usage (ci/rayon_suite.sh runs it):
    rayon_suite.py sources                            the folders of rayon and rayon-core,
                                                      from `cargo metadata` on stdin
    rayon_suite.py manifest OUT RAYON_TOML CORE_TOML  Cargo.toml of the package
    rayon_suite.py tests    OUT_DIR CRATE_DIR...      tests/*.rs of each crate, renamed
    rayon_suite.py docs     OUT_DIR CRATE_DIR...      src/lib.rs holding their doc examples

The rename: `rayon_core` becomes `prorata`, and so does `rayon` before `::`. Nothing else
in the text changes.

The doc examples: every run of `///` or `//!` lines in src/ that holds a code block
becomes the doc comment of an empty module named after the file and line it came from
(rustdoc then names its tests `rayon_iter_mod_rs_1234`), except in src/compile_fail/,
whose modules hold nothing but `compile_fail` examples (some written through a macro):
those files are copied whole, as modules of the library.
"""

import json
import os
import re
import sys
import tomllib
from pathlib import Path


def rename(text):
    text = re.sub(r"\brayon_core\b", "prorata", text)
    return re.sub(r"\brayon::", "prorata::", text)


def sources(metadata):
    dirs = {p["name"]: os.path.dirname(p["manifest_path"]) for p in metadata["packages"]}
    print(dirs["rayon"], dirs["rayon-core"])


def crate_name(crate_dir):  # "rayon" or "rayon_core", from ".../rayon-core-1.13.0"
    return re.sub(r"-[0-9][^/]*$", "", Path(crate_dir).name).replace("-", "_")


def manifest(out, rayon_toml, core_toml):
    """The dev-dependencies of both crates (the tests' own needs), at the versions asked."""
    deps = {}
    for path in (rayon_toml, core_toml):
        toml = tomllib.load(open(path, "rb"))
        tables = [toml.get("dev-dependencies", {})]
        tables += [t.get("dev-dependencies", {}) for t in toml.get("target", {}).values()]
        for table in tables:
            for name, spec in table.items():
                if name not in ("rayon", "rayon-core"):
                    deps[name] = spec if isinstance(spec, str) else spec["version"]
    # rayon-core's tests/scoped_threadpool.rs uses a normal dependency of rayon-core.
    core = tomllib.load(open(core_toml, "rb"))
    deps["crossbeam-utils"] = core["dependencies"]["crossbeam-utils"]["version"]
    lines = [
        "[package]",
        'name = "rayon-suite"',
        'version = "0.0.0"',
        # Rayon's files are edition 2021 code that compiles unchanged under 2024, which
        # lets rustdoc build the doc examples into one binary (20 s of CPU, not 60 s);
        # each example still runs in a process of its own.
        'edition = "2024"',
        "publish = false",
        "[dependencies]",
        'prorata = { path = "../.." }',
        "[dev-dependencies]",
    ]
    lines += [f'{name} = "{version}"' for name, version in sorted(deps.items())]
    lines += ["[workspace]"]
    write(out, "\n".join(lines) + "\n")


def write(path, text):
    """Writes only what changed, so that cargo rebuilds only that."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def prune(out_dir, kept):
    """Removes what an earlier run wrote and this one did not."""
    for path in Path(out_dir).rglob("*.rs"):
        if path not in kept:
            path.unlink()


def tests(out_dir, crate_dirs):
    kept = set()
    for crate_dir in crate_dirs:
        for src in sorted(Path(crate_dir, "tests").glob("*.rs")):
            kept.add(write(Path(out_dir, src.name), rename(src.read_text())))
    prune(out_dir, kept)


def doc_runs(path):
    """(first line, lines) of each run of `///` or `//!` lines that holds a code block."""
    run, start = [], 0
    for number, line in enumerate(path.read_text().splitlines() + [""], 1):
        stripped = line.lstrip()
        if stripped.startswith(("///", "//!")) and not stripped.startswith("////"):
            if not run:
                start = number
            run.append("///" + stripped[3:])
            continue
        if any(l.lstrip("/ ").startswith("```") for l in run):
            yield start, run
        run = []


def docs(out_dir, crate_dirs):
    kept = set()
    lib = ["//! The doc examples of rayon and rayon-core, renamed (ci/rayon_suite.sh).", ""]
    for crate_dir in crate_dirs:
        crate, src = crate_name(crate_dir), Path(crate_dir, "src")
        for path in sorted(src.rglob("*.rs")):
            rel = path.relative_to(src)
            if rel.parts[0] == "compile_fail":
                dest = Path(out_dir, f"{crate}_compile_fail", *rel.parts[1:])
                kept.add(write(dest, rename(path.read_text())))
                continue
            stem = re.sub(r"\W", "_", f"{crate}_{rel}")
            for start, run in doc_runs(path):
                lib += [rename(line) for line in run]
                lib += [f"pub mod {stem}_{start} {{}}", ""]
        if Path(src, "compile_fail").is_dir():
            lib += [f"mod {crate}_compile_fail;", ""]
    kept.add(write(Path(out_dir, "lib.rs"), "\n".join(lib)))
    prune(out_dir, kept)


if __name__ == "__main__":
    command, args = sys.argv[1], sys.argv[2:]
    if command == "sources":
        sources(json.load(sys.stdin))
    elif command == "manifest":
        manifest(*args)
    elif command == "tests":
        tests(args[0], args[1:])
    elif command == "docs":
        docs(args[0], args[1:])
    else:
        sys.exit(__doc__)
