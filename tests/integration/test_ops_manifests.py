"""Structure and cross-references of the deployment files: Dockerfile, compose, Kubernetes, Grafana, ghz.

None of these can run here (no Docker engine, no cluster), so the checks are about what breaks them
in practice: a selector that matches nothing, a port that is not the server's, a mounted file that
is not there, a dashboard query on a metric the server does not export.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
import yaml

from mjsvc import config as serve_config
from mjsvc import loadgen
from mjsvc.gen.mahjong.v1 import mahjong_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
DEFAULTS = serve_config.ServeConfig()
KNOWN_ENV = {var for _, var, _, _ in serve_config.SETTINGS}


# ---------------------------------------------------------------------------------------------
# Metric names: what the server exports, what the rules record, what PromQL expressions use


def exported_metric_names() -> set[str]:
    """Every sample name the server's metrics module can expose."""
    from prometheus_client.metrics import MetricWrapperBase

    from mjsvc import metrics

    names = {"up"}  # Prometheus's own per-target series
    for obj in vars(metrics).values():
        if not isinstance(obj, MetricWrapperBase):
            continue
        kind, name = obj._type, obj._name
        if kind == "counter":
            names |= {f"{name}_total", f"{name}_created"}
        elif kind == "histogram":
            names |= {f"{name}_bucket", f"{name}_sum", f"{name}_count", f"{name}_created"}
        else:
            names.add(name)
    return names


def recorded_names() -> set[str]:
    doc = yaml.safe_load((DEPLOY / "prometheus/rules/recording.yml").read_text())
    return {r["record"] for g in doc["groups"] for r in g["rules"]}


_PROMQL_WORDS = {"and", "or", "unless", "bool", "offset", "by", "without", "on", "ignoring", "group_left",
                 "group_right", "inf", "nan"}


def promql_metric_names(expr: str) -> set[str]:
    """Metric names an expression selects: identifiers that are not functions, keywords or labels."""
    s = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)
    s = re.sub(r"\{[^}]*\}", " ", s)
    s = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", s)
    s = re.sub(r"\[[^\]]*\]", " ", s)
    names = set()
    for m in re.finditer(r"(?<![\w.])[a-zA-Z_:][a-zA-Z0-9_:]*", s):
        if s[m.end():].lstrip().startswith("(") or m.group(0).lower() in _PROMQL_WORDS:
            continue
        names.add(m.group(0))
    return names


def test_promql_name_extraction() -> None:
    expr = ('histogram_quantile(0.99, sum by (job, le) (rate(grpc_server_handling_seconds_bucket'
            '{grpc_method=~"A|B"}[1m]))) / on(job) group_left up or vector(1e-3) > bool job:x:rate1m')
    assert promql_metric_names(expr) == {"grpc_server_handling_seconds_bucket", "up", "job:x:rate1m"}


def test_rules_use_exported_metrics() -> None:
    known = exported_metric_names() | recorded_names()
    for name in ("recording.yml", "alerts.yml"):
        doc = yaml.safe_load((DEPLOY / "prometheus/rules" / name).read_text())
        for group in doc["groups"]:
            for rule in group["rules"]:
                used = promql_metric_names(rule["expr"])
                assert used, rule
                assert used <= known, f"{name}: {rule.get('record') or rule.get('alert')} uses {used - known}"


def test_alerts_cover_the_failure_modes() -> None:
    doc = yaml.safe_load((DEPLOY / "prometheus/rules/alerts.yml").read_text())
    alerts = {r["alert"]: r for g in doc["groups"] for r in g["rules"]}
    exprs = " ".join(r["expr"] for r in alerts.values())
    for needle in ("errors:ratio", "p99", "worker_restarts", "up{"):
        assert needle in exprs, needle
    for rule in alerts.values():
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"]


# ---------------------------------------------------------------------------------------------
# Grafana


def _dashboard() -> dict[str, Any]:
    return json.loads((DEPLOY / "grafana/dashboards/mjsvc.json").read_text())


def test_dashboard_panels_and_queries() -> None:
    dash = _dashboard()
    panels = dash["panels"]
    titles = [p["title"].lower() for p in panels]
    for needed in ("throughput", "latency percentiles by method", "errors by code", "cache hit ratio", "workers"):
        assert any(needed in t for t in titles), f"no panel for {needed}: {titles}"
    known = exported_metric_names() | recorded_names()
    ids = [p["id"] for p in panels]
    assert len(set(ids)) == len(ids)
    for p in panels:
        assert p["targets"], p["title"]
        assert p["datasource"]["uid"] == "mjsvc-prometheus"
        for t in p["targets"]:
            used = promql_metric_names(t["expr"])
            assert used and used <= known, f"{p['title']}: {t['expr']} uses unknown {used - known}"
    by_title = {p["title"].lower(): p for p in panels}
    latency = " ".join(t["expr"] for t in by_title["latency percentiles by method"]["targets"])
    assert all(q in latency for q in ("p50", "p90", "p99")) and "{{grpc_method}}" in json.dumps(
        by_title["latency percentiles by method"])
    assert "grpc_code" in json.dumps(by_title["errors by code"])
    assert "cache_hits" in json.dumps(by_title["cache hit ratio"])
    assert "mjsvc_workers_ready" in json.dumps(by_title["workers"])


def test_grafana_provisioning_points_at_the_dashboard_and_prometheus() -> None:
    ds = yaml.safe_load((DEPLOY / "grafana/provisioning/datasources/prometheus.yml").read_text())
    (source,) = ds["datasources"]
    assert source["type"] == "prometheus" and source["uid"] == "mjsvc-prometheus"
    compose = _compose()
    host, port = re.match(r"http://([\w-]+):(\d+)", source["url"]).groups()  # type: ignore[union-attr]
    assert host in compose["services"] and f"{port}:{port}" in compose["services"][host]["ports"]
    prov = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/mjsvc.yml").read_text())
    path = prov["providers"][0]["options"]["path"]
    mounts = dict(v.split(":")[1::-1] for v in compose["services"]["grafana"]["volumes"])  # container -> host
    assert (DEPLOY / mounts[path] / "mjsvc.json").is_file()


# ---------------------------------------------------------------------------------------------
# Compose


def _compose() -> dict[str, Any]:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def test_compose_services_and_files() -> None:
    services = _compose()["services"]
    assert {"mjsvc", "prometheus", "grafana", "loadgen"} <= set(services)
    build = services["mjsvc"]["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).is_file()
    for svc in services.values():
        for vol in svc.get("volumes", []):
            host = vol.split(":")[0]
            assert (DEPLOY / host).exists(), vol
        for env in svc.get("environment", {}):
            if env.startswith("MJSVC_"):
                assert env in KNOWN_ENV, env
    ports = services["mjsvc"]["ports"]
    assert f"{DEFAULTS.port}:{DEFAULTS.port}" in ports and f"{DEFAULTS.metrics_port}:{DEFAULTS.metrics_port}" in ports
    # The Prometheus config mounted into the prometheus service scrapes the mjsvc service's metrics port.
    prom = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    job = next(j for j in prom["scrape_configs"] if j["job_name"] == "mjsvc")
    assert job["static_configs"][0]["targets"] == [f"mjsvc:{DEFAULTS.metrics_port}"]
    for rule_file in prom["rule_files"]:
        assert (DEPLOY / "prometheus" / rule_file).is_file()


def test_compose_loadgen_is_a_one_shot_run_of_the_simulator() -> None:
    lg = _compose()["services"]["loadgen"]
    assert lg["restart"] == "no"
    assert lg["depends_on"]["mjsvc"]["condition"] == "service_healthy"
    assert lg["image"] == _compose()["services"]["mjsvc"]["image"]
    argv = lg["command"]
    assert argv[0] == "loadgen"
    parser = argparse.ArgumentParser()
    loadgen.add_arguments(parser)
    args = parser.parse_args(argv[1:])  # exits (fails the test) on an unknown flag
    assert args.target == f"mjsvc:{DEFAULTS.port}" and args.tables == 200


# ---------------------------------------------------------------------------------------------
# Dockerfile


def _dockerfile_instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile() -> None:
    ins = _dockerfile_instructions()
    # The bases are build arguments (BASE, BUILD_BASE defaulting to it) whose default is python:3.11-slim.
    args: dict[str, str] = {}
    for word, rest in ins:
        if word == "FROM":
            break
        if word == "ARG" and "=" in rest:
            name, _, default = rest.partition("=")
            args[name] = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], default)
    froms = [re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], rest) for word, rest in ins if word == "FROM"]
    assert froms and all(f.startswith("python:3.11-slim") for f in froms)
    final = ins[max(i for i, (w, _) in enumerate(ins) if w == "FROM"):]
    users = [rest for word, rest in final if word == "USER"]
    assert users and users[-1].split(":")[0] not in ("root", "0")
    (health,) = [rest for word, rest in final if word == "HEALTHCHECK"]
    assert "grpc_health" in health and "SERVING" in health
    exposed = {int(p) for word, rest in final if word == "EXPOSE" for p in rest.split()}
    assert exposed == {DEFAULTS.port, DEFAULTS.metrics_port}
    for word, rest in ins:
        if word == "COPY" and not rest.startswith("--from"):
            for src in shlex.split(rest)[:-1]:
                assert (ROOT / src).exists(), src
    ignored = [line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    for needed in ("engine", "mjsvc", "tablebuild", "proto", "pyproject.toml", "setup.py"):
        assert needed not in ignored


def healthcheck_argv() -> list[str]:
    """The HEALTHCHECK command of the Dockerfile (exec form), for tests that run it against a server."""
    (health,) = [rest for word, rest in _dockerfile_instructions() if word == "HEALTHCHECK"]
    return json.loads(health[health.index("CMD") + 3:].strip())


# ---------------------------------------------------------------------------------------------
# Kubernetes


def _k8s() -> dict[str, dict[str, Any]]:
    docs: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc:
                # by kind; an object not named mjsvc (the ClusterIP Service next to the headless one) by kind/name
                name = doc.get("metadata", {}).get("name", "mjsvc")
                key = doc["kind"] if name == "mjsvc" else f"{doc['kind']}/{name}"
                assert key not in docs, f"two {key} objects"
                docs[key] = doc
    return docs


def _matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def test_k8s_kinds_and_kustomization() -> None:
    docs = _k8s()
    for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodMonitor", "ConfigMap", "Kustomization"):
        assert kind in docs, kind
    listed = set(docs["Kustomization"]["resources"])
    assert listed == {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}


def test_k8s_deployment() -> None:
    docs = _k8s()
    dep = docs["Deployment"]
    tmpl = dep["spec"]["template"]
    labels = tmpl["metadata"]["labels"]
    assert _matches(dep["spec"]["selector"]["matchLabels"], labels)
    (c,) = tmpl["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"grpc": DEFAULTS.port, "metrics": DEFAULTS.metrics_port}
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert c[probe]["grpc"]["port"] == DEFAULTS.port, probe
    service = c["readinessProbe"]["grpc"].get("service")
    assert service in (None, "", pb.DESCRIPTOR.services_by_name["MahjongEngine"].full_name)
    res = c["resources"]
    assert res["requests"]["cpu"] and res["requests"]["memory"] and res["limits"]["cpu"] and res["limits"]["memory"]
    sec = tmpl["spec"]["securityContext"]
    assert sec["runAsNonRoot"] is True and sec["runAsUser"] != 0
    # One worker per pod, configured through the ConfigMap's environment.
    cm = docs["ConfigMap"]
    assert {"configMapRef": {"name": cm["metadata"]["name"]}} in c["envFrom"]
    assert cm["data"]["MJSVC_WORKERS"] == "1"
    assert set(cm["data"]) <= KNOWN_ENV
    assert int(cm["data"]["MJSVC_PORT"]) == DEFAULTS.port
    assert int(cm["data"]["MJSVC_METRICS_PORT"]) == DEFAULTS.metrics_port
    assert cm["data"]["MJSVC_HOST"] == "0.0.0.0" and cm["data"]["MJSVC_METRICS_HOST"] == "0.0.0.0"
    # Aged connections are closed so clients re-resolve and reach new pods; the server accepts the values.
    assert float(cm["data"]["MJSVC_MAX_CONNECTION_AGE"]) > 0
    parser = argparse.ArgumentParser()
    serve_config.add_arguments(parser, environ=cm["data"])
    cfg = serve_config.from_args(parser.parse_args([]))
    assert cfg.workers == 1 and cfg.max_connection_age == float(cm["data"]["MJSVC_MAX_CONNECTION_AGE"])
    # Scrape annotations, for a Prometheus without the operator.
    ann = tmpl["metadata"]["annotations"]
    assert ann["prometheus.io/scrape"] == "true" and int(ann["prometheus.io/port"]) == DEFAULTS.metrics_port
    # The drain must fit into the termination grace period.
    assert tmpl["spec"]["terminationGracePeriodSeconds"] > DEFAULTS.grace


def test_k8s_service_hpa_podmonitor_reference_the_deployment() -> None:
    docs = _k8s()
    dep = docs["Deployment"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    container_ports = {p["name"]: p["containerPort"] for p in dep["spec"]["template"]["spec"]["containers"][0]["ports"]}
    svc = docs["Service"]
    assert svc["spec"]["clusterIP"] == "None", "headless, for client-side round_robin"
    assert _matches(svc["spec"]["selector"], labels)
    for port in svc["spec"]["ports"]:
        assert port["targetPort"] in container_ports and port["port"] == container_ports[port["targetPort"]]
    hpa = docs["HorizontalPodAutoscaler"]
    ref = hpa["spec"]["scaleTargetRef"]
    assert (ref["kind"], ref["name"], ref["apiVersion"]) == ("Deployment", dep["metadata"]["name"], dep["apiVersion"])
    assert 1 <= hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]
    assert hpa["spec"]["metrics"]
    pm = docs["PodMonitor"]
    assert _matches(pm["spec"]["selector"]["matchLabels"], labels)
    for ep in pm["spec"]["podMetricsEndpoints"]:
        assert ep["port"] in container_ports and container_ports[ep["port"]] == DEFAULTS.metrics_port
    if "PodDisruptionBudget" in docs:
        assert _matches(docs["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"], labels)


# ---------------------------------------------------------------------------------------------
# ghz configuration files (their data is replayed through a server in test_ops_ghz.py)


GHZ = DEPLOY / "ghz"


@pytest.mark.parametrize("name", ["evaluate.json", "analyze.json", "play.json"])
def test_ghz_config(name: str) -> None:
    cfg = json.loads((GHZ / name).read_text())
    service, method = cfg["call"].rsplit(".", 1)
    desc = pb.DESCRIPTOR.services_by_name["MahjongEngine"]
    assert service == desc.full_name and method in desc.methods_by_name
    assert (ROOT / cfg["proto"]).is_file()
    assert (ROOT / cfg["data-file"]).is_file()
    assert cfg["connections"] > 1 and cfg["concurrency"] >= cfg["connections"]
    assert cfg["host"].rsplit(":", 1)[1] == str(DEFAULTS.port)
    assert cfg["insecure"] is True
    data = json.loads((ROOT / cfg["data-file"]).read_text())
    assert isinstance(data, list) and len(data) >= 50
