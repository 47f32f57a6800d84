#!/usr/bin/env python3
"""nova-rules.py DIR: what nova would refuse, in the plans of the state
directory DIR of scripts/upgrade-loop: a move to a host out of service
(disabled, down, forced down), across availability zones, of a server
nova cannot live-migrate (neither ACTIVE nor PAUSED), or whose argv
names a host by its id where nova knows it by another service host;
any openstack command (an API call) that does not run on the control
node (run_on: control); an API call that enables the service of a host
its operator disabled; and, after the last iteration, a server nova
could live-migrate still on such a host once it is upgraded.
Prints a count per rule and each breach; exit 1 when there is one."""
import glob
import json
import os
import sys

LIVE = (None, 'ACTIVE', 'PAUSED')


def actions(sched):
    for stage in sched.get('stages', []):
        for g in stage.get('groups', []):
            yield from g.get('actions', [])


def last_upgraded_disabled(top, count, bad):
    reports = sorted(glob.glob(os.path.join(top, 'iter-*', '5-report.json')),
                     key=lambda p: int(p.split('iter-')[1].split('/')[0]))
    with open(reports[-1]) as f:
        system = json.load(f)['system']
    res = {r['id']: r for r in system['resources']}
    for t in system['tenants']:
        for vm in t['vms']:
            h = res.get(vm['host'], {})
            hv = res.get(vm['host'] + '-hv', {})
            if h.get('disabled') and vm.get('status') in LIVE and \
                    hv.get('products', {}).get('qemu') == '8.2':
                count['live-on-upgraded-disabled'] += 1
                bad.append(f'{vm["id"]} runs on {h["id"]}, upgraded')


def main(top):
    count = {'moves': 0, 'to-out-of-service': 0, 'across-zones': 0,
             'not-live': 0, 'argv-not-service-host': 0, 'api-calls': 0,
             'api-call-not-on-control-node': 0, 'enables-disabled': 0,
             'live-on-upgraded-disabled': 0}
    bad = []
    held = set()
    for it in sorted(glob.glob(os.path.join(top, 'iter-*')),
                     key=lambda p: int(p.rsplit('-', 1)[1])):
        path = os.path.join(it, '4-migrations.json')
        if not os.path.exists(path):
            continue
        with open(path) as f:
            doc = json.load(f)
        system = doc['system']
        res = {r['id']: r for r in system['resources']}
        held |= {r.get('service_host', r['id']) for r in res.values()
                 if r.get('disabled') and r['kind'] == 'host'}
        vms = {vm['id']: vm for t in system['tenants'] for vm in t['vms']}
        scheds = [doc['schedule']] + [
            s['schedule'] for s in
            (doc.get('migrations') or {}).get('sub_iterations', [])]
        across = system.get('migrate_across_zones', False)
        for sched in scheds:
            for a in actions(sched):
                steps = [a] + a.get('undo', []) + (
                    [a['on_failure']] if 'on_failure' in a else [])
                for s in steps:
                    if (s.get('argv') or [''])[0] != 'openstack':
                        continue
                    count['api-calls'] += 1
                    if '--enable' in s['argv'] and held & set(s['argv']):
                        count['enables-disabled'] += 1
                        bad.append(f'{os.path.basename(it)}: {s["id"]} '
                                   f'enables {held & set(s["argv"])}')
                    if s.get('run_on') != 'control':
                        count['api-call-not-on-control-node'] += 1
                        bad.append(f'{os.path.basename(it)}: {s["id"]} '
                                   f'runs on {s["host"]}')
                if not a.get('vm'):
                    continue
                count['moves'] += 1
                src, dst = res[a['source']], res[a['destination']]
                where = f'{os.path.basename(it)}: {a["id"]}'
                if dst.get('status', 'active') != 'active':
                    count['to-out-of-service'] += 1
                    bad.append(f'{where}: to {dst["id"]}, {dst["status"]}')
                if not across and src.get('zone') != dst.get('zone'):
                    count['across-zones'] += 1
                    bad.append(f'{where}: from {src.get("zone")} to '
                               f'{dst.get("zone")}')
                if vms[a['vm']].get('status') not in LIVE:
                    count['not-live'] += 1
                    bad.append(f'{where}: {vms[a["vm"]]["status"]}')
                name = dst.get('service_host', dst['id'])
                if name not in a['argv'] or (name != dst['id'] and
                                             dst['id'] in a['argv']):
                    count['argv-not-service-host'] += 1
                    bad.append(f'{where}: argv {a["argv"]} for {name}')
    last_upgraded_disabled(top, count, bad)
    print(' '.join(f'{k}={v}' for k, v in count.items()))
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1]))
