"""checklist.py - what the docs tests share: one line per check (`ok - ...` or
`FAIL - ...`) and the summary line every suite ends with."""


class Checklist:
    def __init__(self, name):
        self.name = name
        self.results = []

    def check(self, ok, what):
        self.results.append(bool(ok))
        print(("ok - " if ok else "FAIL - ") + what)

    def summary(self):
        """Prints `NAME: N passed, N failed`; the exit status (1 if none ran)."""
        passed = sum(self.results)
        print(f"{self.name}: {passed} passed, {len(self.results) - passed} failed")
        return 0 if self.results and passed == len(self.results) else 1
