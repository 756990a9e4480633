import sys

from mjsvc.loadgen.cli import main

sys.exit(main())
