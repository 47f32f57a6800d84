"""tap.py: TAP output for the tests written in Python (tests/ha-*.t).

    from tap import Tap
    tap = Tap()
    tap.ok(cond, "what it proves", detail)   # detail shown when it fails
    sys.exit(tap.done())                      # the plan line; the status
"""


class Tap:
    """The checks of one test file, numbered as they are made."""

    def __init__(self):
        self.count = 0
        self.failed = 0

    def ok(self, cond, msg, detail=""):
        self.count += 1
        print("%s %d - %s" % ("ok" if cond else "not ok", self.count, msg))
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[-30:]:
                print("#   " + line)
        return cond

    def done(self):
        print("1..%d" % self.count)
        return 1 if self.failed else 0
