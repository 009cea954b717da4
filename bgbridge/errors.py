"""The one error type the command line turns into a one-line message and exit status 2."""


class UserError(Exception):
    """A mistake in what the user gave us (bad argument, unreadable file, ...), not a bug.

    The CLI prints ``bgbridge: <message>`` on standard error and exits with status 2.
    """
