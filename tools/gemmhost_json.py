"""Reads a gemmhost results JSON (PREFIX.json) and checks that it is one,
so that a tool can say what is wrong with a file instead of a traceback.

    doc = gemmhost_json.load("run.json")      # or load("run"): PREFIX alone
    except gemmhost_json.NotResults as e: print(e) names the file and the problem
"""
import json
import os

# What every result and agreement entry must carry for the tools to read it, and its type
# (None: may be null, e.g. no time for a result that did not run).
NUMBER = (int, float)
RESULT_KEYS = {"case_index": int, "backend": str, "device_index": int, "kernel": str, "params": str,
               "dtype": str, "trans": str, "m": int, "n": int, "k": int, "status": str,
               "gflops": NUMBER + (type(None),)}
AGREEMENT_KEYS = {"case_index": int, "dtype": str, "trans": str, "m": int, "n": int, "k": int,
                  "max_diff_in_bounds": NUMBER + (type(None),), "groups": list}
GROUP_KEYS = {"members": list}


class NotResults(Exception):
    """The file is missing, unreadable, not JSON or not gemmhost's results."""


def resolve(path):
    """PATH as given when it exists, else PATH.json (a PREFIX as gemmhost's --output takes)."""
    if not os.path.exists(path) and os.path.exists(path + ".json"):
        return path + ".json"
    return path


def _require(entry, keys, where, path):
    if not isinstance(entry, dict):
        raise NotResults(f"{path}: {where} is not an object")
    missing = [k for k in keys if k not in entry]
    if missing:
        raise NotResults(f"{path}: {where} lacks {', '.join(missing)}")
    for k, types in keys.items():
        if not isinstance(entry[k], types) or isinstance(entry[k], bool):
            raise NotResults(f"{path}: {where}.{k} is {json.dumps(entry[k])}, not "
                             + " or ".join("null" if t is type(None) else t.__name__
                                           for t in (types if isinstance(types, tuple) else (types,))))


def load(path):
    """The document at PATH (or PATH.json), checked: a gemmhost version, a results
    list whose entries carry RESULT_KEYS, an agreement list (may be empty) whose
    entries carry AGREEMENT_KEYS with groups of members."""
    path = resolve(path)
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except FileNotFoundError:
        raise NotResults(f"{path}: no such file")
    except (OSError, UnicodeDecodeError) as e:
        raise NotResults(f"{path}: cannot read: {e}")
    except json.JSONDecodeError as e:
        raise NotResults(f"{path}: not JSON: {e}")
    if not isinstance(doc, dict) or not isinstance(doc.get("gemmhost"), dict):
        raise NotResults(f"{path}: not a gemmhost results file (no \"gemmhost\" version object at the top)")
    for key in ("results", "agreement"):
        if not isinstance(doc.get(key), list):
            raise NotResults(f"{path}: not a gemmhost results file (no \"{key}\" list)")
    for i, r in enumerate(doc["results"]):
        _require(r, RESULT_KEYS, f"results[{i}]", path)
    for i, a in enumerate(doc["agreement"]):
        _require(a, AGREEMENT_KEYS, f"agreement[{i}]", path)
        for j, g in enumerate(a["groups"]):
            _require(g, GROUP_KEYS, f"agreement[{i}].groups[{j}]", path)
    return doc


def prefix_of(path):
    """PREFIX of PREFIX.json (the path as given when it has no .json)."""
    path = resolve(path)
    return path[:-len(".json")] if path.endswith(".json") else path
