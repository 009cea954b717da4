import sys

from bgbridge.cli import main

sys.exit(main())
