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
#   3. otherwise forks a keeper, in a session of its own, which runs
#      argv (no shell) in a child, its output into RECORD.out and
#      RECORD.err, and as soon as the command exits writes its status
#      into RECORD.tmp and renames it to RECORD, then syncs the file and
#      its folder.  The keeper holds the lock until then.
# RECORD is DIR/RUN/SHA256(step id): DIR is ~/.local/state/upkit/steps
# on the host unless the task gives another, RUN the run id.  No kill of
# the step's process group (Ansible's, the upgrade loop's watchdog's)
# and no hangup of a dropped SSH connection reaches the keeper: a
# command that started ends and is recorded, whatever happens to the
# controller, and a run again waits for the lock, then reports it.  The
# command gets SIGKILL if its keeper is killed first (PR_SET_PDEATHSIG,
# Linux): it never goes on with no process to record its end.  A command
# that could not start leaves no record.  With state=absent, the run's
# records on the host are removed.
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


def _prctl():
    """prctl(2), on Linux; else None."""
    if not sys.platform.startswith('linux'):
        return None
    try:
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def _sync_folder(folder):
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _status(wstatus):
    """A wait status as the shell tells it: 128 + a signal."""
    if os.WIFSIGNALED(wstatus):
        return 128 + os.WTERMSIG(wstatus)
    return os.WEXITSTATUS(wstatus)


def _write_why(record, text):
    with open(record + '.why', 'w', encoding='utf-8') as f:
        f.write(text)


def _exec(argv, out, err, failed, keeper, prctl):
    """The command, in the keeper's child: never returns.  It dies with
    the keeper; a failure to start goes to the keeper through failed."""
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.dup2(out, 1)
        os.dup2(err, 2)
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        if prctl is not None:
            prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != keeper:
            os._exit(137)
        os.execvp(argv[0], argv)
    except OSError as e:
        os.write(failed, ('cannot run %s: %s' % (argv[0], e.strerror))
                 .encode('utf-8', 'replace'))
    os._exit(127)


def _keep_step(argv, record, pending, prctl):
    """Run argv in a child and record its end: the keeper's work; its
    exit status: 0 recorded, 3 the command could not start."""
    tmp = os.open(record + '.tmp', os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                  0o600)
    out = os.open(record + '.out', os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                  0o600)
    err = os.open(record + '.err', os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
                  0o600)
    failed_r, failed_w = os.pipe()      # closed at exec: empty on success
    keeper = os.getpid()
    pid = os.fork()
    if pid == 0:
        _exec(argv, out, err, failed_w, keeper, prctl)
    os.close(failed_w)
    failed = os.read(failed_r, 4096)
    _, wstatus = os.waitpid(pid, 0)
    if failed:
        os.unlink(record + '.tmp')
        _write_why(record, failed.decode('utf-8', 'replace'))
        return 3
    # The record, as soon as the command has exited: a write and a rename.
    pending['rc'] = _status(wstatus)
    pending['ended'] = _now()
    os.write(tmp, (json.dumps(pending, sort_keys=True) + '\n').encode())
    os.rename(record + '.tmp', record)
    os.fsync(tmp)
    _sync_folder(os.path.dirname(record))
    return 0


def _keep(argv, record, pending, prctl):
    """The keeper, in the module's child: a session of its own, so that
    no kill of the step's process group, and no hangup of its terminal,
    reaches it or the command; it holds the step's lock (inherited)
    until the record is kept.  Never returns."""
    code = 1
    try:
        os.setsid()
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        code = _keep_step(argv, record, pending, prctl)
    except BaseException as e:  # never unwind into the module's code
        try:
            _write_why(record, "the step's keeper failed: %s" % e)
        except BaseException:
            pass
    os._exit(code)


def _read_text(path):
    try:
        with open(path, 'rb') as f:
            return to_text(f.read(), errors='surrogate_or_replace')
    except OSError:
        return ''


def _run(module, result, argv, record):
    """Run argv through a keeper and exit with its result."""
    pending = {'run': result['run'], 'step': result['step'], 'argv': argv,
               'started': _now()}
    prctl = _prctl()
    keeper = os.fork()
    if keeper == 0:
        _keep(argv, record, pending, prctl)
    _, wstatus = os.waitpid(keeper, 0)
    code = _status(wstatus)
    if code == 3:
        result['rc'] = 127
        module.fail_json(msg=_read_text(record + '.why'), **result)
    if code != 0:
        module.fail_json(msg=_read_text(record + '.why') or "the step's "
                         'keeper ended with status %d; its record, if any, '
                         'says whether the command ran' % code, **result)
    ended = _read_record(record) or {}
    rc = ended.get('rc', -1)
    result.update(changed=True, rc=rc, start=ended.get('started'),
                  end=ended.get('ended'),
                  stdout=_read_text(record + '.out').rstrip('\r\n'),
                  stderr=_read_text(record + '.err').rstrip('\r\n'))
    if rc != 0:
        module.fail_json(msg='non-zero return code', **result)
    module.exit_json(**result)


def _forget(module, folder, run):
    """Remove the run's folder: renamed away first, so that hosts that
    share it (-c local, or one home on several inventory hosts) remove
    it once between them, and a folder half removed is never read."""
    changed = os.path.isdir(folder)
    if changed and not module.check_mode:
        doomed = '%s.forgotten.%d' % (folder, os.getpid())
        try:
            os.rename(folder, doomed)
        except FileNotFoundError:
            changed = False
        except OSError as e:
            module.fail_json(msg='cannot remove %s: %s' % (folder, e.strerror))
        else:
            shutil.rmtree(doomed)
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
