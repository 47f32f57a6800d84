# upkit_json: Ansible stdout callback writing the results of a playbook
# run as one JSON document, in the format of the "json" callback of the
# ansible.posix collection, which Debian's ansible-core does not ship.
# ansible-report(1) reads either.
#
#   {"plays": [{"play": {"name", "id", "duration": {"start", "end"}},
#               "tasks": [{"task": {"name", "id", "duration": {...}},
#                          "hosts": {HOST: RESULT}}]}],
#    "stats": {HOST: {"ok", "changed", "failures", "unreachable",
#                     "skipped", "rescued", "ignored"}},
#    "custom_stats": {}, "global_custom_stats": {}}
#
# RESULT is the module's result with "action" added and "failed": true
# or "skipped": true when the task failed or was skipped; an unreachable
# host's result holds "unreachable": true.  Under a strategy that does
# not run tasks in lockstep ("free"), every host's run of a task is a
# task entry of its own, so a task id may repeat.
#
# With UPKIT_ANSIBLE_JOURNAL set, each step's end is also appended to
# that file as it happens, a JSON line {"name", "host", "outcome"}
# (ok, failed, skipped or unreachable), flushed and fsynced before
# Ansible goes on: the record that survives a kill of the run, from
# which a run again skips what finished (ansible-plan --replay).
from __future__ import annotations

import datetime
import json
import os

from ansible.parsing.ajson import AnsibleJSONEncoder
from ansible.plugins.callback import CallbackBase

DOCUMENTATION = '''
    name: upkit_json
    short_description: playbook results as one JSON document
    description:
      - Writes the plays, tasks, per-host results and stats as JSON on
        stdout, in the format of the ansible.posix json callback.
    type: stdout
'''


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%S.%fZ')


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = 'stdout'
    CALLBACK_NAME = 'upkit_json'

    def __init__(self, display=None):
        super().__init__(display)
        self.plays = []
        self.lockstep = True
        self.running = {}       # (host, task uuid) -> task entry
        path = os.environ.get('UPKIT_ANSIBLE_JOURNAL')
        self.journal = open(path, 'a', encoding='utf-8') if path else None
        if self.journal is not None:
            # the file's name must survive a crash too
            folder = os.open(os.path.dirname(os.path.abspath(path)),
                             os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)

    def _journal(self, host, task, outcome):
        if self.journal is None:
            return
        self.journal.write(json.dumps({'name': task.get_name(),
                                       'host': host,
                                       'outcome': outcome},
                                      sort_keys=True) + '\n')
        self.journal.flush()
        os.fsync(self.journal.fileno())

    def _entry(self, task):
        return {'task': {'name': task.get_name(), 'id': str(task._uuid),
                         'duration': {'start': _now()}},
                'hosts': {}}

    def v2_playbook_on_play_start(self, play):
        self.lockstep = play.strategy in ('linear', 'debug')
        self.plays.append({'play': {'name': play.get_name(),
                                    'id': str(play._uuid),
                                    'duration': {'start': _now()}},
                           'tasks': []})

    def v2_playbook_on_task_start(self, task, is_conditional):
        if self.lockstep:
            self.plays[-1]['tasks'].append(self._entry(task))

    def v2_playbook_on_handler_task_start(self, task):
        self.v2_playbook_on_task_start(task, False)

    def v2_runner_on_start(self, host, task):
        if not self.lockstep:
            entry = self._entry(task)
            self.running[(host.get_name(), task._uuid)] = entry
            self.plays[-1]['tasks'].append(entry)

    def _record(self, result, extra):
        host, task = result._host.get_name(), result._task
        entry = self.running.pop((host, task._uuid), None)
        if entry is None:
            entry = self.plays[-1]['tasks'][-1]
        res = dict(result._result)
        res.update(extra)
        res['action'] = task.action
        entry['hosts'][host] = res
        end = _now()
        entry['task']['duration']['end'] = end
        self.plays[-1]['play']['duration']['end'] = end

    def v2_runner_on_ok(self, result, **kwargs):
        self._record(result, {})
        self._journal(result._host.get_name(), result._task, 'ok')

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._record(result, {'failed': True})
        self._journal(result._host.get_name(), result._task, 'failed')

    def v2_runner_on_skipped(self, result):
        self._record(result, {'skipped': True})
        self._journal(result._host.get_name(), result._task, 'skipped')

    def v2_runner_on_unreachable(self, result):
        self._record(result, {})
        self._journal(result._host.get_name(), result._task, 'unreachable')

    def v2_playbook_on_stats(self, stats):
        summary = {h: stats.summarize(h) for h in sorted(stats.processed)}
        out = {'plays': self.plays, 'stats': summary,
               'custom_stats': {}, 'global_custom_stats': {}}
        self._display.display(json.dumps(out, cls=AnsibleJSONEncoder,
                                          indent=4, sort_keys=True))
