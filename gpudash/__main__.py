import sys

from gpudash.cli import main

sys.exit(main())
