"""Values that break one field each: the model and values.schema.json must both reject them."""

from __future__ import annotations

from typing import Any

from tests.chart.jobs import job_values

BAD_FIELD_VALUES: dict[str, dict[str, Any]] = {
    "replicas as text": job_values("mpi", worker={"replicas": "two"}),
    "negative replicas": job_values("mpi", worker={"replicas": -1}),
    "fractional gpus": job_values("mpi", worker={"gpus": 1.5}),
    "unknown framework": job_values("jax"),
    "unknown pull policy": job_values("mpi", image={"pullPolicy": "Sometimes"}),
    "a required variable no shell can read": job_values(
        "mpi", preflight={"requiredEnv": ["NCCL.DEBUG"]}
    ),
    "a preflight switch that is not a boolean": job_values("mpi", preflight={"enabled": "no"}),
    "unknown top-level key": job_values("mpi", workers=4),
    "unknown nested key": job_values("mpi", worker={"resources": {"requests": {"gpu": 1}}}),
    "bad quantity": job_values("mpi", worker={"resources": {"limits": {"cpu": "lots"}}}),
    "bad label key": job_values("mpi", labels={"bad key!": "x"}),
    "bad label value": job_values("mpi", labels={"team": "two words"}),
    "bad env name": job_values("mpi", env={"1BAD": "x"}),
    "env value not text": job_values("mpi", env={"THREADS": 4}),
    "claim name not a DNS name": job_values(
        "mpi", datasets=[{"claimName": "Data_Set", "mountPath": "/d"}]
    ),
    "dataset without mount path": job_values("mpi", datasets=[{"claimName": "data"}]),
    "relative mount path": job_values("mpi", datasets=[{"claimName": "d", "mountPath": "data"}]),
    # issue 37: it would forge a line of the preflight's check list ("<what> <path>" a line)
    "a newline in a mount path": job_values(
        "mpi", datasets=[{"claimName": "d", "mountPath": "/data\nresults /etc"}]
    ),
    "a control character in a results path": job_values(
        "mpi", results={"claimName": "r", "mountPath": "/out\x1b[2J"}
    ),
    "port out of range": job_values("mpi", mpi={"sshPort": 70000}),
    "two chiefs": job_values("tensorflow", tensorflow={"chief": {"replicas": 2}}),
    "unknown toleration operator": job_values(
        "mpi", scheduling={"tolerations": [{"operator": "Maybe"}]}
    ),
    "shm size in GB": job_values("mpi", shm={"sizeLimit": "2GB"}),
    "lowercase capability": job_values("mpi", security={"capabilities": {"add": ["sys_admin"]}}),
    "negative backoff": job_values("mpi", runPolicy={"backoffLimit": -1}),
    "nproc of zero": job_values("pytorch", pytorch={"nprocPerNode": 0}),
    "nproc as a word": job_values("pytorch", pytorch={"nprocPerNode": "many"}),
    "empty image": job_values("mpi", image={"name": ""}),
    "empty command": job_values("mpi", command=""),
    "relative working dir": job_values("mpi", workingDir="relative"),
    "numeric argument": job_values("mpi", args=[1]),
    "image with a space": job_values("mpi", worker={"image": "registry/a b"}),
    "evaluator twice": job_values("tensorflow", tensorflow={"evaluator": {"replicas": 2}}),
    "cleanup policy typo": job_values("mpi", runPolicy={"cleanPodPolicy": "running"}),
    "an empty exec command": job_values("mpi", command=[]),
    "env from two sources at once": job_values(
        "pytorch",
        env={
            "A": {
                "valueFrom": {
                    "fieldRef": {"fieldPath": "metadata.name"},
                    "secretKeyRef": {"name": "s", "key": "k"},
                }
            }
        },
    ),
    "env from nowhere": job_values("pytorch", env={"A": {"valueFrom": {}}}),
    "envFrom naming neither a Secret nor a ConfigMap": job_values(
        "pytorch", envFrom=[{"prefix": "P_"}]
    ),
    "a probe with two actions": job_values(
        "mpi",
        worker={"readinessProbe": {"tcpSocket": {"port": 22}, "exec": {"command": ["true"]}}},
    ),
    "a negative user": job_values("mpi", security={"runAsUser": -1}),
    "an unknown restart policy of a role": job_values(
        "tensorflow", worker={"restartPolicy": "Always"}
    ),
    "two pytorch masters": job_values("pytorch", pytorch={"master": {"replicas": 2}}),
    "an elastic target without its value": job_values(
        "pytorch",
        pytorch={
            "elasticPolicy": {
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {"name": "cpu", "target": {"type": "Utilization"}},
                    }
                ]
            }
        },
    ),
    "an elastic target with the other type's value": job_values(
        "pytorch",
        pytorch={
            "elasticPolicy": {
                "metrics": [
                    {
                        "type": "Resource",
                        "resource": {
                            "name": "cpu",
                            "target": {"type": "Utilization", "averageValue": "2"},
                        },
                    }
                ]
            }
        },
    ),
    "an unknown rendezvous backend": job_values(
        "pytorch", pytorch={"elasticPolicy": {"rdzvBackend": "zookeeper"}}
    ),
    "an unknown runtime kind": job_values("trainjob", trainjob={"runtimeKind": "JobSet"}),
    "a runtime name with capitals": job_values("trainjob", trainjob={"runtime": "Torch"}),
    "an unknown sync mode": job_values("pytorch", codeSync={"mode": "hdfs"}),
    "git sync without a repository": job_values("pytorch", codeSync={"mode": "git"}),
    "a git repository that is not a URL": job_values(
        "pytorch", codeSync={"mode": "git", "git": {"repository": "models"}}
    ),
    "an unknown TensorBoard service type": job_values(
        "pytorch", tensorboard={"serviceType": "Ingress"}
    ),
}
