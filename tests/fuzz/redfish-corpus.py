#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Write fuzz-redfish's seeds: for each Storage resource of each tree in
tests/redfish/trees/, a document cache (@odata.id -> resource) holding it
and what it links to, as lib/redfish/crawl.c would fetch it.

    tests/fuzz/redfish-corpus.py   # rewrites tests/fuzz/corpus/fuzz-redfish/
"""
import glob
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
TREES = os.path.join(HERE, "..", "redfish", "trees")
OUT = os.path.join(HERE, "corpus", "fuzz-redfish")
# The links the mapping follows (lib/redfish/map.c).
FOLLOWED = {"Drives", "Controllers", "Volumes", "Members", "Chassis", "Metrics",
            "EnvironmentMetrics"}


def links(value, follow=False):
    """Every @odata.id under @value reached through a FOLLOWED key."""
    if isinstance(value, dict):
        for key, sub in value.items():
            if key == "@odata.id" and follow and isinstance(sub, str):
                yield sub
            elif key != "@odata.id":
                yield from links(sub, follow or key in FOLLOWED)
    elif isinstance(value, list):
        for sub in value:
            yield from links(sub, follow)


def closure(resources, start):
    docs, todo = {}, [start]
    while todo:
        uri = todo.pop()
        if uri in docs or "#" in uri or uri not in resources:
            continue
        docs[uri] = resources[uri]
        todo.extend(links({k: v for k, v in docs[uri].items() if k != "Links"}))
        todo.extend(links(docs[uri].get("Links", {}).get("Chassis", {}), True))
    return docs


def main():
    os.makedirs(OUT, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(TREES, "*.json"))):
        tree = os.path.splitext(os.path.basename(path))[0]
        with open(path, encoding="utf-8") as f:
            resources = json.load(f)["Resources"]
        for uri, res in sorted(resources.items()):
            if not res.get("@odata.type", "").startswith("#Storage."):
                continue
            cache = {"@storage": uri}
            cache.update(closure(resources, uri))
            name = "%s-%s.json" % (tree, res["Id"])
            with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
                json.dump(cache, f, separators=(",", ":"), sort_keys=True)
                f.write("\n")


if __name__ == "__main__":
    main()
