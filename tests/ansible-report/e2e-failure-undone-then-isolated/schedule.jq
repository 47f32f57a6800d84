# schedule.jq: a runtime upgrade schedule (upkit-state(5)) for the first
# execution level of every vertex of the resource graph that is neither
# isolated nor failed, one group per vertex, run on the host containing
# it; a stand-in for batch-select in this test.
. as $d
| def host_of($id):
    ([$d.system.dependencies[] | select(.type == "contained" and
      .dependent == $id) | .sponsor] + [$id])[0];
  .schedule = {version: 1, id: "i\(.resource_graph.iteration)",
    concurrency: 1,
    stages: [{id: "upgrade", phase: "upgrade", groups: [
      .resource_graph.vertices[]
      | select((.actions_to_execute // []) | length > 0)
      | select(.is_isolated != true and .is_failed != true)
      | .id as $v | host_of($v) as $h
      | {id: $v, actions: [.actions_to_execute[0].actions[]
          | {id, phase: "upgrade", op, resource: $v, host: $h, undo_unit,
             argv, duration,
             undo: [{id: (.id + "~undo"), host: $h, argv: .undo.argv,
                     duration: .undo.duration}]}]}]}]}
