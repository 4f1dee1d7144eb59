"""pytest for `make`: a marker selection that collects no test (pytest's exit 5) fails
loudly, since a target that tests nothing hides a broken selection, not an empty suite."""

import sys

import pytest

NO_TESTS_COLLECTED = 5

if __name__ == "__main__":
    code = pytest.main(sys.argv[1:])
    if code == NO_TESTS_COLLECTED:
        print(f"no test matched this selection ({' '.join(sys.argv[1:])}): the target tests nothing")
        code = 1
    sys.exit(code)
