"""pytest, with "no tests collected" (exit 5) counted as success: a marker
selection that matches nothing is not a failure of the product."""

import sys

import pytest

NO_TESTS_COLLECTED = 5

if __name__ == "__main__":
    code = pytest.main(sys.argv[1:])
    if code == NO_TESTS_COLLECTED:
        print("no tests matched this selection")
        code = 0
    sys.exit(code)
