# upkit_step: the controller's side of the upkit_step module
# (library/upkit_step.py): it runs the module on the host, and in check
# mode has Ansible's output show the module's result whatever the
# verbosity, as the debug action does, so that "ansible-playbook
# --check" lists each command a step would run.
from ansible.plugins.action import ActionBase
from ansible.utils.vars import merge_hash


class ActionModule(ActionBase):

    def run(self, tmp=None, task_vars=None):
        self._supports_check_mode = True
        result = super().run(tmp, task_vars)
        del tmp
        result = merge_hash(result, self._execute_module(task_vars=task_vars))
        self._remove_tmp_path(self._connection._shell.tmpdir)
        if self._task.check_mode:
            result['_ansible_verbose_always'] = True
        return result
