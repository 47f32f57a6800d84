# upkit_progress: Ansible notification callback that writes a line on
# standard error for each group of an upkit iteration's schedules as it
# ends, while the playbook runs (actuate-ansible(1)):
#
#   actuate-ansible: 0:03:10 i3 upgrade host7: done (7 of 16 groups)
#
# the wall time since the playbook started, the schedule, stage and
# group, and how the group ended: done; failed at (or unreachable at)
# the step that did, after which the group's other steps do not run;
# or blocked, when every step was skipped (a step it requires failed).
# The lines are those of upkit-sim -v, in wall time.
#
# UPKIT_ANSIBLE_PROGRESS names a JSON file that actuate-ansible writes
# from the schedules: [{"label": "i3 upgrade host7", "anchor": "host7",
# "steps": {STEP-ID: HOST, ...}}, ...].  A step's task is found by the
# step id that ends its name in brackets (sched_task_name(), which
# ansible-report finds results by too); only the results of the step's
# own host or of the group's anchor, the play host its block runs on,
# count.  Without the variable the plugin says nothing.
from __future__ import annotations

import json
import os
import re
import sys
import time

from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
    name: upkit_progress
    short_description: a line on stderr per upkit group that ends
    description:
      - Writes a line on standard error for each group of the upkit
        schedules named by UPKIT_ANSIBLE_PROGRESS as its steps end.
    type: notification
'''

STEP_ID = re.compile(r'\[([^\[\]]+)\]$')
CONTROL = re.compile(r'[\x00-\x1f\x7f]')


def _escaped(text):
    """text with its control characters as \\xHH: a line stays a line."""
    return CONTROL.sub(lambda m: f'\\x{ord(m.group()):02x}', text)


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'notification'
    CALLBACK_NAME = 'upkit_progress'
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, display=None):
        super().__init__(display)
        self.start = time.monotonic()
        self.groups = []
        self.step_group = {}    # step id -> index into groups
        self.told = 0
        path = os.environ.get('UPKIT_ANSIBLE_PROGRESS')
        if not path:
            return
        try:
            with open(path, encoding='utf-8') as f:
                groups = json.load(f)
        except (OSError, ValueError) as e:
            self._say(f'no progress lines: {path}: {e}')
            return
        for g in groups:
            entry = {'label': g['label'], 'hosts': {g['anchor']},
                     'steps': g['steps'], 'outcomes': {}, 'ended': False}
            for step, host in g['steps'].items():
                entry['hosts'].add(host)
                self.step_group[step] = len(self.groups)
            self.groups.append(entry)

    def _say(self, text):
        sys.stderr.write(f'actuate-ansible: {_escaped(text)}\n')
        sys.stderr.flush()

    def _ended(self, g, how):
        g['ended'] = True
        self.told += 1
        t = int(time.monotonic() - self.start)
        self._say(f'{t // 3600}:{t % 3600 // 60:02d}:{t % 60:02d} '
                  f'{g["label"]}: {how} ({self.told} of {len(self.groups)} '
                  f'groups)')

    def _result(self, result, outcome):
        m = STEP_ID.search(result._task.get_name())
        k = self.step_group.get(m.group(1)) if m else None
        if k is None:
            return
        g = self.groups[k]
        if g['ended'] or result._host.get_name() not in g['hosts']:
            return
        step = m.group(1)
        if outcome in ('failed', 'unreachable'):
            self._ended(g, f'{outcome} at {step}')
            return
        g['outcomes'][step] = outcome
        if len(g['outcomes']) < len(g['steps']):
            return
        skipped = sum(1 for o in g['outcomes'].values() if o == 'skipped')
        if skipped == len(g['steps']):
            self._ended(g, 'blocked')
        elif skipped:
            self._ended(g, f'done, {skipped} skipped')
        else:
            self._ended(g, 'done')

    def v2_runner_on_ok(self, result, **kwargs):
        self._result(result, 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._result(result, 'failed')

    def v2_runner_on_skipped(self, result):
        self._result(result, 'skipped')

    def v2_runner_on_unreachable(self, result):
        self._result(result, 'unreachable')
