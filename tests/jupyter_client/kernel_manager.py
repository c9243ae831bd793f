"""The tensh kernels driven by Jupyter's own Python client, as notebooks drive them.

Run by tests/all/jupyter_client.rs with a Python that has jupyter_client, nbclient and
nbformat (TENSH_JUPYTER_PYTHON); usage: kernel_manager.py TENSH_BINARY. The kernel specs are
installed into a temporary Jupyter data folder, never the user's. Prints one line per check
with what it measured; exits 1 on the first check that fails.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

TENSH = sys.argv[1]
DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs")
data = tempfile.mkdtemp(prefix="tensh-jupyter-")
os.environ["JUPYTER_DATA_DIR"] = data
os.environ["JUPYTER_PATH"] = data
subprocess.run([TENSH, "jupyter", "install", "--user"], check=True, stdout=subprocess.DEVNULL)

from jupyter_client.manager import KernelManager  # noqa: E402
import nbclient  # noqa: E402
import nbformat  # noqa: E402

# Only a hang reaches these; the figures printed are what the note reports.
PATIENCE = 20


def fail(what):
    print("FAILED: " + what)
    sys.exit(1)


def started(name):
    km = KernelManager(kernel_name=name)
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=PATIENCE)
    return km, kc


def reply_to(kc, msg_id):
    deadline = time.time() + PATIENCE
    while time.time() < deadline:
        msg = kc.get_shell_msg(timeout=PATIENCE)
        if msg["parent_header"].get("msg_id") == msg_id:
            return msg["content"]
    fail("no reply to " + msg_id)


def run(kc, code):
    outputs = []
    reply = kc.execute_interactive(
        code, timeout=PATIENCE, output_hook=lambda m: outputs.append(m)
    )["content"]
    return reply, outputs


def interrupt_then_shutdown(name, endless):
    km, kc = started(name)
    process = km.provisioner.process
    msg_id = kc.execute(endless)
    # The cell is running once its execute_input is published.
    while True:
        m = kc.get_iopub_msg(timeout=PATIENCE)
        if m["msg_type"] == "execute_input":
            break
    time.sleep(0.2)
    t0 = time.time()
    km.interrupt_kernel()
    reply = reply_to(kc, msg_id)
    took = time.time() - t0
    if reply["status"] != "error" or reply.get("ename") != "KeyboardInterrupt":
        fail(f"{name}: interrupt: {reply}")
    print(f"{name}: interrupt answered in {took:.3f} s")
    # The next cell, sent as soon as the interrupted one replied, runs.
    reply, _ = run(kc, "1 + 1")
    if reply["status"] != "ok":
        fail(f"{name}: the cell after an interrupt: {reply}")
    t0 = time.time()
    km.shutdown_kernel()
    took = time.time() - t0
    if process.returncode != 0:
        fail(f"{name}: shutdown: the kernel ended with {process.returncode} (killed?)")
    print(f"{name}: shutdown in {took:.3f} s, exit status 0")


def cells(name, transcript, failing_command):
    km, kc = started(name)
    reply, outputs = run(kc, transcript)
    if reply["status"] != "ok":
        fail(f"{name}: a pasted transcript: {reply}")
    printed = "".join(
        m["content"]["text"] for m in outputs if m["msg_type"] == "stream"
    )
    print(f"{name}: a pasted transcript ran: {printed!r}")
    reply, _ = run(kc, failing_command)
    if reply["status"] != "error":
        fail(f"{name}: {failing_command!r} reported {reply}")
    print(f"{name}: {failing_command!r} is an error cell: {reply['ename']}")
    km.shutdown_kernel()


def notebook(page):
    path = os.path.join(DOCS, "notebooks", page)
    nb = nbformat.read(path, as_version=4)
    # As `jupyter nbconvert --execute` runs it, without --allow-errors.
    client = nbclient.NotebookClient(
        nb, timeout=PATIENCE, resources={"metadata": {"path": DOCS}}
    )
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as e:
        fail(f"{page} does not execute as it stands: {str(e)[:500]}")
    executed = os.path.join(data, page)
    nbformat.write(nb, executed)
    check = subprocess.run([TENSH, "jupyter", "check", executed], capture_output=True, text=True)
    if check.returncode != 0:
        fail(f"{page}: {check.stderr[:2000]}")
    print(f"{page}: executed as it stands; {check.stdout.strip()}")


interrupt_then_shutdown("tensh", "loop {}")
interrupt_then_shutdown("tensh-python", "while True: pass")
cells(
    "tensh",
    ">>> let x = torch::arange(4);\n>>> x.view(2, 2)\ntensor([[0, 1],\n        [2, 3]])\n>>> x.stride()\n[1]\n",
    ":explain nope",
)
cells(
    "tensh-python",
    ">>> import torch\n>>> x = torch.arange(4)\n>>> for i in range(2):\n...     print(i)\n...\n0\n1\n>>> x.stride()\n(1,)\n",
    ":explain",
)
for page in ["layout.ipynb", "python.ipynb"]:
    notebook(page)
shutil.rmtree(data, ignore_errors=True)
print("all passed")
