"""deploy/k8s, checked offline: every core object validated against the Kubernetes OpenAPI schemas of a current
release (kubernetes-validate, strict: an unknown or misspelt field fails), the CRD objects (PodMonitor) checked
structurally, and the operational properties an SRE looks for before applying a Deployment.

The objects are what `kubectl kustomize deploy/k8s` renders when kubectl is installed (what `kubectl apply -k`
would send), else the files the kustomization lists, loaded as they are.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from mjsvc import config as serve_config
from mjsvc.service_config import SERVICE

kubernetes_validate = pytest.importorskip("kubernetes_validate", reason="pip install -e '.[dev]' installs it")

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"
DEFAULTS = serve_config.ServeConfig()
# The schemas of the current release (August 2026); kubernetes-validate ships them (no cluster, no network).
K8S_VERSION = "1.37.0"
CRD_GROUPS = ("monitoring.coreos.com/",)


def rendered() -> list[dict[str, Any]]:
    kubectl = shutil.which("kubectl")
    if kubectl:
        out = subprocess.run([kubectl, "kustomize", str(K8S)], check=True, capture_output=True, text=True,
                             timeout=60).stdout
        return [d for d in yaml.safe_load_all(out) if d]
    kust = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    return [d for name in kust["resources"] for d in yaml.safe_load_all((K8S / name).read_text()) if d]


@pytest.fixture(scope="module")
def objects() -> list[dict[str, Any]]:
    return rendered()


def one(objects: list[dict[str, Any]], kind: str, name: str | None = None) -> dict[str, Any]:
    found = [o for o in objects if o["kind"] == kind and (name is None or o["metadata"]["name"] == name)]
    assert len(found) == 1, f"{kind} {name or ''}: {len(found)} objects"
    return found[0]


def is_crd(obj: dict[str, Any]) -> bool:
    return str(obj["apiVersion"]).startswith(CRD_GROUPS)


def test_schema_version_is_shipped() -> None:
    # A release at least as new as the one named above must be in the package (it validates against it).
    latest = tuple(int(x) for x in kubernetes_validate.latest_version().split(".")[:2])
    assert latest >= tuple(int(x) for x in K8S_VERSION.split(".")[:2])


def test_core_objects_validate_strictly(objects: list[dict[str, Any]]) -> None:
    core = [o for o in objects if not is_crd(o)]
    assert {o["kind"] for o in core} >= {"Deployment", "Service", "ConfigMap", "HorizontalPodAutoscaler",
                                         "PodDisruptionBudget"}
    for obj in core:
        kubernetes_validate.validate(obj, K8S_VERSION, strict=True)


def test_the_validator_refuses_a_broken_object(objects: list[dict[str, Any]]) -> None:
    """The check can fail: a misspelt field and a wrong type are both refused."""
    import copy

    dep = copy.deepcopy(one(objects, "Deployment"))
    dep["spec"]["template"]["spec"]["containers"][0]["readinesProbe"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(dep, K8S_VERSION, strict=True)
    dep = copy.deepcopy(one(objects, "Deployment"))
    dep["spec"]["replicas"] = "two"
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(dep, K8S_VERSION, strict=True)


def test_crd_objects_structurally(objects: list[dict[str, Any]]) -> None:
    """The PodMonitor (Prometheus Operator CRD, not in the core schemas): the fields the operator requires,
    a selector matching the pods, and an endpoint on the metrics port by name."""
    pm = one(objects, "PodMonitor")
    assert pm["apiVersion"] == "monitoring.coreos.com/v1"
    assert set(pm) <= {"apiVersion", "kind", "metadata", "spec"} and pm["metadata"]["name"]
    assert set(pm["spec"]) <= {"selector", "podMetricsEndpoints", "namespaceSelector", "jobLabel", "podTargetLabels",
                               "sampleLimit", "targetLimit"}
    pod = one(objects, "Deployment")["spec"]["template"]
    labels = pod["metadata"]["labels"]
    assert pm["spec"]["selector"]["matchLabels"].items() <= labels.items()
    ports = {p["name"]: p["containerPort"] for p in pod["spec"]["containers"][0]["ports"]}
    for ep in pm["spec"]["podMetricsEndpoints"]:
        assert set(ep) <= {"port", "path", "interval", "scrapeTimeout", "relabelings", "metricRelabelings", "scheme"}
        assert ports[ep["port"]] == DEFAULTS.metrics_port and ep["path"] == "/metrics"
        assert ep["interval"].endswith("s")
        for r in ep.get("relabelings", []):
            assert set(r) <= {"sourceLabels", "separator", "targetLabel", "regex", "modulus", "replacement", "action"}


# ---------------------------------------------------------------------------------------------
# What an SRE checks


def _container(objects: list[dict[str, Any]]) -> dict[str, Any]:
    (c,) = one(objects, "Deployment")["spec"]["template"]["spec"]["containers"]
    return c


def _seconds(s: str | int) -> float:
    return float(str(s).rstrip("s"))


def test_probes_are_grpc_health(objects: list[dict[str, Any]]) -> None:
    c = _container(objects)
    for probe in ("readinessProbe", "livenessProbe", "startupProbe"):
        assert c[probe]["grpc"]["port"] == DEFAULTS.port, probe
    # Readiness on the engine's own service name: the server reports it NOT_SERVING while draining.
    assert c["readinessProbe"]["grpc"]["service"] == SERVICE
    # Liveness is gentler than readiness: a busy pod is taken out of rotation long before it is restarted.
    live, ready = c["livenessProbe"], c["readinessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > ready["periodSeconds"] * ready["failureThreshold"]


def test_prestop_drain_fits_the_grace_period(objects: list[dict[str, Any]]) -> None:
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    c = _container(objects)
    cmd = c["lifecycle"]["preStop"]["exec"]["command"]
    sleep = float(cmd[-1].split("sleep(")[1].split(")")[0]) if "sleep(" in cmd[-1] else float(cmd[-1])
    env = one(objects, "ConfigMap")["data"]
    grace = float(env.get("MJSVC_GRACE", DEFAULTS.grace))
    # preStop runs first, then SIGTERM starts the drain (at most `grace` s): both inside the period.
    assert 0 < sleep < pod["terminationGracePeriodSeconds"]
    assert sleep + grace < pod["terminationGracePeriodSeconds"]


def test_rollout_and_disruption(objects: list[dict[str, Any]]) -> None:
    dep = one(objects, "Deployment")
    ru = dep["spec"]["strategy"]["rollingUpdate"]
    assert dep["spec"]["strategy"]["type"] == "RollingUpdate" and ru["maxUnavailable"] == 0 and ru["maxSurge"] >= 1
    # The next old pod is stopped only once clients can have connected to the new one (tests/slow/test_fleet.py).
    from mjsvc.service_config import MAX_RECONNECT_BACKOFF_S

    assert dep["spec"]["minReadySeconds"] >= MAX_RECONNECT_BACKOFF_S
    pdb = one(objects, "PodDisruptionBudget")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    hpa = one(objects, "HorizontalPodAutoscaler")
    # The budget leaves room for a voluntary eviction at the HPA's floor.
    assert pdb["spec"]["minAvailable"] < hpa["spec"]["minReplicas"]


def test_hpa_on_cpu(objects: list[dict[str, Any]]) -> None:
    hpa = one(objects, "HorizontalPodAutoscaler")
    dep = one(objects, "Deployment")
    assert hpa["spec"]["scaleTargetRef"]["name"] == dep["metadata"]["name"]
    cpu = [m for m in hpa["spec"]["metrics"] if m["type"] == "Resource" and m["resource"]["name"] == "cpu"]
    assert cpu and 0 < cpu[0]["resource"]["target"]["averageUtilization"] < 100
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    # Utilization is relative to the CPU request: it must be set.
    assert _container(objects)["resources"]["requests"]["cpu"]


def test_resources_and_security(objects: list[dict[str, Any]]) -> None:
    pod = one(objects, "Deployment")["spec"]["template"]["spec"]
    c = _container(objects)
    for kind in ("requests", "limits"):
        assert c["resources"][kind]["cpu"] and c["resources"][kind]["memory"], kind
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    sec = c["securityContext"]
    assert sec["readOnlyRootFilesystem"] is True and sec["allowPrivilegeEscalation"] is False
    assert sec["capabilities"]["drop"] == ["ALL"]
    # A read-only root: the one writable place is the /tmp emptyDir (prometheus-client's multiprocess files).
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    volumes = {v["name"]: v for v in pod["volumes"]}
    assert "emptyDir" in volumes[mounts["/tmp"]]


def test_services_headless_and_clusterip(objects: list[dict[str, Any]]) -> None:
    dep = one(objects, "Deployment")
    labels = dep["spec"]["template"]["metadata"]["labels"]
    services = [o for o in objects if o["kind"] == "Service"]
    headless = [s for s in services if s["spec"].get("clusterIP") == "None"]
    clusterip = [s for s in services if s["spec"].get("clusterIP") != "None"
                 and s["spec"].get("type", "ClusterIP") == "ClusterIP"]
    assert len(headless) == 1 and len(clusterip) == 1
    for svc in services:
        assert svc["spec"]["selector"].items() <= labels.items()
        grpc = [p for p in svc["spec"]["ports"] if p["name"] == "grpc"]
        assert grpc and grpc[0]["port"] == DEFAULTS.port and grpc[0]["appProtocol"] == "kubernetes.io/h2c"
    # Not-ready pods are not published to the resolvers of client-side balancing.
    assert not headless[0]["spec"].get("publishNotReadyAddresses", False)


def test_topology_spread(objects: list[dict[str, Any]]) -> None:
    pod = one(objects, "Deployment")["spec"]["template"]
    spread = pod["spec"]["topologySpreadConstraints"]
    keys = {t["topologyKey"] for t in spread}
    assert "kubernetes.io/hostname" in keys
    for t in spread:
        assert t["maxSkew"] >= 1 and t["labelSelector"]["matchLabels"].items() <= pod["metadata"]["labels"].items()


def test_prometheus_scraping(objects: list[dict[str, Any]]) -> None:
    pod = one(objects, "Deployment")["spec"]["template"]
    ann = pod["metadata"].get("annotations", {})
    assert ann.get("prometheus.io/scrape") == "true" and int(ann["prometheus.io/port"]) == DEFAULTS.metrics_port
    assert any(o["kind"] == "PodMonitor" for o in objects)
