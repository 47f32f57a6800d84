# every stage of step 3 and of every sub-iteration of step 4: the
# anti-affinity groups of the VMs it moves must all differ
([.system.tenants[].vms[] | {(.id): .group}] | add) as $group
| [.schedule.stages[], (.migrations.sub_iterations[]?.schedule.stages[])]
| map([.groups[].actions[] | select(.op == "migrate") | $group[.vm]])
| map(select(length > 0))
| [length, (map(select(length != (unique | length))) | length),
   (map(length) | add // 0)]
| @tsv
