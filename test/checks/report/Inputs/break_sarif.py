"""Writes copies of a SARIF log with the second result's location (or the
run's tool) broken in one way each: PREFIX-<how>.sarif (baseline-validation.test)."""
import copy
import json
import sys

log = json.load(open(sys.argv[1]))
prefix = sys.argv[2]


def broken(how, change):
    out = copy.deepcopy(log)
    change(out["runs"][0], out["runs"][0]["results"][1])
    with open("%s-%s.sarif" % (prefix, how), "w") as f:
        json.dump(out, f)


def physical(result):
    return result["locations"][0]["physicalLocation"]


broken("no-locations", lambda run, r: r.pop("locations"))
broken("no-uri", lambda run, r: physical(r)["artifactLocation"].pop("uri"))
broken("bad-line", lambda run, r: physical(r).__setitem__("region", {"startLine": "5"}))
broken("no-rule", lambda run, r: r.pop("ruleId"))
broken("no-driver", lambda run, r: run["tool"]["driver"].pop("name"))
