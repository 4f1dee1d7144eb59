"""Log records reshaped by the LOGGING setting.

Django logs each request it refuses as suspicious (a Host not in
ALLOWED_HOSTS, a body over DATA_UPLOAD_MAX_MEMORY_SIZE, too many form fields)
at ERROR with a traceback on django.security.<exception name>. Those are a
client's mistake or a scanner's probe, answered with a 4xx, not faults of the
site: attached to those loggers, ClientRefusal turns each into one WARNING line
that still says what was refused."""

from __future__ import annotations

import logging

# The SuspiciousOperation subclasses a client causes by what it sends.
CLIENT_REFUSALS = (
    "DisallowedHost",
    "RequestDataTooBig",
    "TooManyFieldsSent",
    "TooManyFilesSent",
    "SuspiciousMultipartForm",
)


class ClientRefusal(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.levelno, record.levelname = logging.WARNING, logging.getLevelName(logging.WARNING)
        record.exc_info, record.exc_text, record.stack_info = None, None, None
        # Logged at ERROR, so it passed a level check meant for ERROR.
        return logging.getLogger(record.name).isEnabledFor(logging.WARNING)
