# batch-hosts.jq: an os_upgrade section whose hosts are the hosts of the
# final batch that batch-select(1) chose, so that seed 000's SLA-safe
# selection decides which hosts may go down and the OS upgrade workers
# carry it out.  A host is a system resource of kind "host" that is a
# member of a control-graph group of the final batch.  The run starts
# at once (a manual trigger); set $app to the worker application.
#   ... | batch-select | jq --arg app os-upgrade-debian -f batch-hosts.jq |
#       osu-ctl -t "$(date -u +%FT%TZ)"
(.batch.final | map(.group)) as $batch
| (.system.resources | map(select(.kind == "host") | .id)) as $hosts
| .os_upgrade = {
    version: 1,
    config: {"worker-applications": [{name: $app}]},
    "scheduled-workers": [
      .control_graph.groups[]
      | select(.id as $g | $batch | index($g))
      | .members[]
      | select(. as $m | $hosts | index($m))
      | {host: ., application: $app}],
    trigger: {timeout: "4h"}
  }
