"""Does the job's image have what the job uses? CUDA for GPUs, sshd for MPI over ssh.

Read from the experiment's ``imageFacts`` (what its file says the image holds, with the
source): a fact that is ``no`` where the job needs it is an error naming the fact, the
source and the two ways out; an ``unverified`` one is shown by the plan (not checked).
"""

from __future__ import annotations

from collections.abc import Sequence

from trainstack.checks.findings import Finding
from trainstack.checks.pods import total_gpus
from trainstack.config.stack import StackConfig
from trainstack.experiments.resolve import Experiment
from trainstack.training_job.frameworks import framework


def image_findings(
    experiments: Sequence[Experiment], config: StackConfig, source: str
) -> list[Finding]:
    """Errors for jobs whose image lacks what they need, by its own facts."""
    return [found for e in experiments for found in _image(e, config)]


def _image(experiment: Experiment, config: StackConfig) -> list[Finding]:
    facts = experiment.image_facts
    if facts is None:
        return []
    job = experiment.job
    image = job.image.name
    found = []
    gpus = total_gpus(job)
    if gpus and facts.cuda is False:
        found.append(
            Finding(
                experiment.source,
                experiment.release_name,
                "imageFacts.cuda",
                f"the job asks for {gpus} GPU(s), but its image {image} has no CUDA libraries "
                f"(source: {facts.source}): its framework cannot use the GPUs and trains on "
                "CPU while they sit idle; use a CUDA-enabled image (and say so here), or ask "
                "for no GPUs",
            )
        )
    serving = config.operators.serving(framework(job.framework).crd)
    if serving is not None and facts.sshd is False:
        # the catalog's transport (training_job/transports.py): ssh needs sshd in the workers
        # (mpi-operator v2beta1); kubectl exec (ack-arena's v1alpha1) and the kinds that
        # start no ranks (no transport) need none
        if serving[1].transport == "ssh":
            found.append(
                Finding(
                    experiment.source,
                    experiment.release_name,
                    "imageFacts.sshd",
                    f"{serving[0].label} starts ranks over ssh (MPIJob {serving[1].api_version}: "
                    f"workers run /usr/sbin/sshd -De), but its image {image} has no sshd "
                    f"(source: {facts.source}): the workers crash-loop or the launcher "
                    "hangs; use an image with openssh-server and an ssh client",
                )
            )
    return found
