#!/usr/bin/env python3
"""Validates SARIF logs against the SARIF 2.1.0 JSON schema.

usage: validate_sarif.py SCHEMA LOG...

Uses the jsonschema module (Debian: python3-jsonschema); the schema is the
official OASIS one beside this script (see README.md). Exit 0 when every log
is valid, 1 with the violations listed otherwise, 2 when the validator cannot
run.
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("validate_sarif.py: the jsonschema module is missing; "
                     "install Debian's python3-jsonschema (tools/setup does)\n")
    sys.exit(2)


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    # The schema declares its draft ($schema: draft-04); check the schema
    # itself first so a damaged schema file cannot pass everything.
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=jsonschema.FormatChecker())
    status = 0
    for path in argv[2:]:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
        for e in errors:
            where = "/".join(str(p) for p in e.absolute_path) or "(root)"
            print("%s: %s: %s" % (path, where, e.message))
        if errors:
            status = 1
        else:
            results = sum(len(r.get("results") or []) for r in log.get("runs") or [])
            print("%s: valid SARIF %s, %d results" % (path, log.get("version"), results))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
