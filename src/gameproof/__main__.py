import sys

from gameproof.cli import main

sys.exit(main())
