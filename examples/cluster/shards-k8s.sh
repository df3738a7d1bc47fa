#!/bin/sh
# The shard route on Kubernetes, end to end: the Indexed Job of shards-job.yaml, then
# `nqueens merge` over its files in a pod that mounts the same volume. The merge's command
# runs under `sh -c`, which expands the pattern (`exec`: nqueens is the pod's process 1).
# `--overrides` is a JSON merge patch of the pod kubectl generates: its containers list
# replaces the generated one whole, so it names the image and the command too.
#
#   examples/cluster/shards-k8s.sh        (the Job's N = 22; the PVC nqueens-results exists)
set -eu
kubectl apply -f "$(dirname "$0")/shards-job.yaml"
kubectl wait --for=condition=complete job/nqueens-n22 --timeout=24h
kubectl run nqueens-merge --rm --attach --restart=Never --image=nqueens:latest --overrides='
{
  "apiVersion": "v1",
  "spec": {
    "containers": [{
      "name": "nqueens-merge",
      "image": "nqueens:latest",
      "command": ["sh", "-c", "exec nqueens merge /results/n22-*.json"],
      "volumeMounts": [{"name": "results", "mountPath": "/results"}]
    }],
    "volumes": [{"name": "results", "persistentVolumeClaim": {"claimName": "nqueens-results"}}]
  }
}'
