"""The binding's build: pyproject.toml says what it is; this adds the .pth
line that runs governor_cpu_count at every Python's startup, which
setuptools' configuration cannot place at the top of site-packages."""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "governor-cpu-count.pth"


class BuildWithPth(build_py):
    def run(self):
        super().run()
        self.copy_file(os.path.join(os.path.dirname(os.path.abspath(__file__)), PTH),
                       os.path.join(self.build_lib, PTH))


setup(cmdclass={"build_py": BuildWithPth})
