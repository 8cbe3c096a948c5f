#!/usr/bin/env python3
"""Compares the public API of rayon and rayon-core with prorata's, from rustdoc JSON.

Usage (ci/rayon_api.sh runs it):
    rayon_api.py paths  JSON...             public paths of the crates, `kind path`
    rayon_api.py diff   PRORATA RAYON...    what rayon has and prorata lacks
    rayon_api.py uses   RAYON...            the body of tests/rayon_paths.rs

Paths are listed from the crate root down through public modules and re-exports
(globs expanded), with the crate name replaced by `prorata`. `diff` also compares, for
every struct, enum and trait found under the same path in both crates: the methods
(inherent and trait items), the traits implemented (by name and arguments, auto traits
included) and, for traits, the types implementing them.
"""

import json
import sys

AUTO = {"Send", "Sync", "Unpin", "UnwindSafe", "RefUnwindSafe", "Freeze"}


class Crate:
    def __init__(self, path):
        doc = json.load(open(path))
        self.index = doc["index"]
        self.external = doc["paths"]
        self.root = doc["root"]
        self.items = {}  # public path -> (kind, id)
        self.generic_names = None
        self._walk(self.root, "prorata", set())

    def item(self, id_):
        return self.index.get(str(id_))

    def kind(self, id_):
        item = self.item(id_)
        if item is not None:
            return next(iter(item["inner"]))
        ext = self.external.get(str(id_))
        return ext["kind"] if ext else "?"

    def _walk(self, module_id, prefix, seen):
        if (module_id, prefix) in seen:
            return
        seen.add((module_id, prefix))
        for child in self.item(module_id)["inner"]["module"]["items"]:
            item = self.item(child)
            if item is None or item["visibility"] != "public":
                continue
            kind = next(iter(item["inner"]))
            if kind == "use":
                use = item["inner"]["use"]
                target = use["id"]
                if use["is_glob"]:
                    if target is not None and self.kind(target) == "module" and self.item(target):
                        self._walk(target, prefix, seen)
                    continue
                path = f"{prefix}::{use['name']}"
                kind = self.kind(target) if target is not None else "?"
                self.items[path] = (kind, target)
                if kind == "module" and self.item(target):
                    self._walk(target, path, seen)
            elif kind != "impl":
                path = f"{prefix}::{item['name']}"
                self.items[path] = (kind, child)
                if kind == "module":
                    self._walk(child, path, seen)

    # ----- rendering types and impls, with paths cut to their last segment -----

    def ty(self, t):
        (k, v), = t.items()
        if k == "resolved_path":
            return self.path(v)
        if k == "generic":
            # Generic parameters are named by order of appearance, so that
            # `impl<T> X<T> for Y<T>` matches `impl<V> X<V> for Y<V>`.
            if self.generic_names is None:
                return v
            return self.generic_names.setdefault(v, f"G{len(self.generic_names)}")
        if k == "primitive":
            return v
        if k == "borrowed_ref":
            return "&" + ("mut " if v["is_mutable"] else "") + self.ty(v["type"])
        if k == "raw_pointer":
            return "*" + ("mut " if v["is_mutable"] else "const ") + self.ty(v["type"])
        if k == "slice":
            return f"[{self.ty(v)}]"
        if k == "array":
            return f"[{self.ty(v['type'])}; N]"
        if k == "tuple":
            return "(" + ", ".join(self.ty(x) for x in v) + ")"
        if k == "qualified_path":
            return f"<{self.ty(v['self_type'])}>::{v['name']}"
        if k == "dyn_trait":
            return "dyn " + " + ".join(self.path(b["trait"]) for b in v["traits"])
        if k == "impl_trait":
            return "impl _"
        if k == "function_pointer":
            return "fn"
        return k

    def path(self, p):
        name = p["path"].split("::")[-1]
        args = p.get("args")
        if args and "angle_bracketed" in args:
            parts = []
            for a in args["angle_bracketed"]["args"]:
                if "type" in a:
                    parts.append(self.ty(a["type"]))
                elif "const" in a:
                    parts.append("N")
            if parts:
                name += "<" + ", ".join(parts) + ">"
        return name

    def impls_of(self, id_):
        item = self.item(id_)
        (k, v), = item["inner"].items()
        if k in ("struct", "enum", "union"):
            return v["impls"]
        if k == "trait":
            return v["implementations"]
        return []

    def methods(self, id_):
        """Names of the inherent methods (struct/enum) or items (trait)."""
        item = self.item(id_)
        (k, v), = item["inner"].items()
        names = set()
        if k == "trait":
            ids = v["items"]
        else:
            ids = []
            for i in self.impls_of(id_):
                imp = self.item(i)["inner"]["impl"]
                if imp["trait"] is None:
                    ids += imp["items"]
        for i in ids:
            it = self.item(i)
            if it and it.get("name") and (k == "trait" or it["visibility"] == "public"):
                names.add(it["name"])
        return names

    def trait_impls(self, id_):
        """`Trait<Args>` for every trait implemented by a struct or enum (no blankets)."""
        out = set()
        for i in self.impls_of(id_):
            imp = self.item(i)["inner"]["impl"]
            if imp["trait"] is None or imp["blanket_impl"] is not None or imp["is_negative"]:
                continue
            if imp["trait"]["path"] == "Drop":  # drop glue is not API: nothing can call it
                continue
            self.generic_names = {}
            out.add(self.path(imp["trait"]))
            self.generic_names = None
        return out

    def implementors(self, id_):
        """`Trait<Args> for Type` for every impl of a trait (no blankets)."""
        out = set()
        for i in self.impls_of(id_):
            item = self.item(i)
            if item is None:
                continue
            imp = item["inner"]["impl"]
            if imp["blanket_impl"] is not None or imp["is_synthetic"]:
                continue
            self.generic_names = {}
            out.add(f"{self.path(imp['trait'])} for {self.ty(imp['for'])}")
            self.generic_names = None
        return out


def merged(paths):
    crates = [Crate(p) for p in paths]
    items = {}
    for c in crates:
        for path, (kind, id_) in c.items.items():
            # rayon re-exports rayon-core's items (the pool, `join`, ...): keep the crate
            # that defines an item, so that its methods and impls (associated functions
            # such as the deprecated `ThreadPool::new` included) are compared too.
            known = items.get(path)
            if known is None or (known[0].item(known[2]) is None and c.item(id_) is not None):
                items[path] = (c, kind, id_)
    return items


def cmd_paths(args):
    for path, (_, kind, _) in sorted(merged(args).items()):
        print(kind, path)


def cmd_uses(args):
    for path in sorted(merged(args)):
        print(f"    use {path} as _;")


def cmd_diff(args):
    ours = Crate(args[0])
    theirs = merged(args[1:])
    missing, details, checked = [], [], set()
    for path, (crate, kind, id_) in sorted(theirs.items()):
        if path not in ours.items:
            missing.append(f"{kind} {path}")
            continue
        if (id(crate), id_) in checked:  # the same item under another path
            continue
        checked.add((id(crate), id_))
        our_kind, our_id = ours.items[path]
        if kind not in ("struct", "enum", "trait") or crate.item(id_) is None:
            continue
        if ours.item(our_id) is None:
            details.append(f"{path}: not defined in prorata (re-exported)")
            continue
        checks = [("method", crate.methods(id_), ours.methods(our_id))]
        if kind == "trait":
            checks.append(("impl", crate.implementors(id_), ours.implementors(our_id)))
        else:
            checks.append(("trait", crate.trait_impls(id_), ours.trait_impls(our_id)))
        for what, want, have in checks:
            for name in sorted(want - have):
                details.append(f"{path}: {what} {name}")
    print(f"paths: rayon {len(theirs)}, prorata has {len(theirs) - len(missing)}, missing {len(missing)}")
    for line in missing:
        print("  missing", line)
    print(f"members and impls missing: {len(details)}")
    for line in details:
        print("  ", line)


if __name__ == "__main__":
    {"paths": cmd_paths, "uses": cmd_uses, "diff": cmd_diff}[sys.argv[1]](sys.argv[2:])
