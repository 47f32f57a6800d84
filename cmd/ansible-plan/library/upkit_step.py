#!/usr/bin/python3
# upkit_step: the Ansible module that runs each step of an upkit plan on
# its host, at most once per run, whichever process is killed
# (ansible-plan(1), "Steps run once").
#
# Ansible copies the module to the target host itself, so nothing is
# installed there.  On the host, the step:
#   1. takes a lock of its own (flock on RECORD.lock), waiting for an
#      earlier attempt at the same step that is still running there;
#   2. if RECORD exists, the step already ended in this run: it reports
#      that outcome (ok, or failed with the status) and runs nothing;
#   3. otherwise runs argv (no shell), and as soon as the command exits
#      renames a prepared RECORD.tmp, holding its status, to RECORD,
#      then syncs the file and its folder.
# RECORD is DIR/RUN/SHA256(step id): DIR is ~/.local/state/upkit/steps
# on the host unless the task gives another, RUN the run id.  The
# command gets SIGKILL if this process dies first (PR_SET_PDEATHSIG, on
# Linux), so a command never outlives the attempt that would record it;
# SIGHUP is ignored, so a dropped SSH connection lets the step finish
# and record itself.  A command that could not start leaves no record.
# With state=absent, the run's records on the host are removed.
import ctypes
import datetime
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.text.converters import to_text

DOCUMENTATION = r'''
module: upkit_step
short_description: run one step of an upkit plan at most once per run
description:
  - Runs I(argv), without a shell, unless the host's record of run I(run)
    says that step I(step) already ended; then reports that outcome
    instead.  The record is written on the host as soon as the command
    exits, so a run again after a kill of the controller runs no
    command twice.
  - In check mode, says the command it would run, or the outcome it
    would report, and runs nothing.
options:
  argv:
    description: the command and its arguments, never given to a shell
    type: list
    elements: str
  step:
    description: the step's id in the plan, unique in the run
    type: str
  run:
    description: the run id (letters, digits, '.', '_', '-'; at most 64)
    type: str
    required: true
  dir:
    description: where the host keeps the records, one folder per run
    type: path
    default: ~/.local/state/upkit/steps
  state:
    description: C(present) runs the step; C(absent) removes the run's
      records on the host
    type: str
    choices: [present, absent]
    default: present
'''

RUN_ID = re.compile(r'[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z')
PR_SET_PDEATHSIG = 1


def _now():
    return datetime.datetime.now(datetime.timezone.utc).strftime(
        '%Y-%m-%dT%H:%M:%S.%fZ')


def _read_record(path):
    """The record's object; None when there is none; {} when it cannot
    be read whole (a crash of the host before it was synced)."""
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError):
        return {}
    try:
        record = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(record, dict) or not isinstance(record.get('rc'), int):
        return {}
    return record


def _report_record(module, result, record):
    """Exit with what an earlier attempt of the step recorded."""
    path = result['record']
    if not record:
        module.fail_json(msg='the record %s of an earlier attempt of this '
                         'step cannot be read: check what the step did, '
                         'then remove the record to run it again' % path,
                         **result)
    result['rc'] = record['rc']
    ended = record.get('ended', '?')
    if record['rc'] == 0:
        result['msg'] = ('already ran in run %s (ended %s): not run again'
                         % (result['run'], ended))
        module.exit_json(**result)
    module.fail_json(msg='failed with status %d in run %s (ended %s): not '
                     'run again' % (record['rc'], result['run'], ended),
                     **result)


def _die_with_parent():
    """A preexec function: the command gets SIGKILL when this process
    dies (Linux); a parent already gone ends it before it runs."""
    parent = os.getpid()
    prctl = None
    if sys.platform.startswith('linux'):
        try:
            prctl = ctypes.CDLL(None, use_errno=True).prctl
        except (OSError, AttributeError):
            prctl = None

    def in_child():
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:
            os._exit(137)
    return in_child


def _sync_folder(folder):
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _run(module, result, argv, record):
    """Run argv and record how it ended; exit with its result."""
    pending = {'run': result['run'], 'step': result['step'], 'argv': argv,
               'started': _now()}
    tmp = os.open(record + '.tmp', os.O_WRONLY | os.O_CREAT | os.O_TRUNC |
                  os.O_CLOEXEC, 0o600)  # an OSError here: nothing ran
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE,
                                preexec_fn=_die_with_parent())
    except OSError as e:
        os.close(tmp)
        os.unlink(record + '.tmp')
        result['rc'] = 127
        module.fail_json(msg='cannot run %s: %s' % (argv[0], e.strerror),
                         **result)
    out, err = proc.communicate()
    rc = proc.returncode if proc.returncode >= 0 else 128 - proc.returncode
    # The record, as soon as the command has exited: a write and a rename.
    pending['rc'] = rc
    pending['ended'] = _now()
    try:
        os.write(tmp, (json.dumps(pending, sort_keys=True) + '\n').encode())
        os.rename(record + '.tmp', record)
        os.fsync(tmp)
        os.close(tmp)
        _sync_folder(os.path.dirname(record))
    except OSError as e:
        result['rc'] = rc
        module.fail_json(msg='the command ended with status %d, but its '
                         'record %s could not be kept: %s; a run again would '
                         'run it again' % (rc, record, e.strerror), **result)
    result.update(changed=True, rc=rc, start=pending['started'],
                  end=pending['ended'],
                  stdout=to_text(out, errors='surrogate_or_replace')
                  .rstrip('\r\n'),
                  stderr=to_text(err, errors='surrogate_or_replace')
                  .rstrip('\r\n'))
    if rc != 0:
        module.fail_json(msg='non-zero return code', **result)
    module.exit_json(**result)


def _forget(module, folder, run):
    changed = os.path.isdir(folder)
    if changed and not module.check_mode:
        shutil.rmtree(folder)
    module.exit_json(changed=changed, run=run, msg='the records of run %s '
                     'on this host %s' % (run, 'removed' if changed else
                                          'were not there'))


def main():
    module = AnsibleModule(
        argument_spec=dict(
            argv=dict(type='list', elements='str'),
            step=dict(type='str'),
            run=dict(type='str', required=True),
            dir=dict(type='path', default='~/.local/state/upkit/steps'),
            state=dict(type='str', choices=['present', 'absent'],
                       default='present')),
        required_if=[('state', 'present', ('argv', 'step'))],
        supports_check_mode=True)
    p = module.params
    run = p['run']
    if not RUN_ID.match(run):
        module.fail_json(msg="%r is not a run id (letters, digits, '.', '_' "
                         "and '-', at most 64)" % run)
    folder = os.path.join(p['dir'], run)
    if p['state'] == 'absent':
        _forget(module, folder, run)
    argv, step = p['argv'], p['step']
    if not argv:
        module.fail_json(msg='argv is empty')
    record = os.path.join(folder, hashlib.sha256(
        step.encode('utf-8', 'surrogateescape')).hexdigest())
    result = dict(changed=False, cmd=argv, step=step, run=run, record=record,
                  stdout='', stderr='')
    if module.check_mode:
        record_now = _read_record(record)
        if record_now is not None:
            _report_record(module, result, record_now)
        module.exit_json(changed=True, cmd=argv, step=step, msg='would run: '
                         + ' '.join(shlex.quote(a) for a in argv))
    try:
        os.makedirs(folder, mode=0o700, exist_ok=True)
        lock = os.open(record + '.lock', os.O_RDWR | os.O_CREAT |
                       os.O_CLOEXEC, 0o600)
        fcntl.flock(lock, fcntl.LOCK_EX)
        record_now = _read_record(record)
        if record_now is None:
            _run(module, result, argv, record)
    except OSError as e:
        # nothing ran: without a record, the step would not run once
        module.fail_json(msg='cannot keep the record of this step in %s: %s'
                         % (folder, e.strerror), **result)
    _report_record(module, result, record_now)


if __name__ == '__main__':
    main()
