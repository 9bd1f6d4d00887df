# The Python module against known results, the cell layout NumPy users rely
# on, and the gol command's own error messages.
import os
import signal
import sys
import struct
import subprocess
import threading

import numpy as np
import pytest

import gol

GLIDER_RLE = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n"


def write(path, text):
    path.write_text(text)
    return path


def test_acorn_stabilises_with_633_cells():
    world = gol.load("builtin:acorn")
    world.step(5206)
    assert world.generation == 5206
    assert world.population == 633


def test_cells_are_an_int64_array_of_xy_rows_sorted_by_y_then_x(tmp_path):
    world = gol.load(write(tmp_path / "glider.rle", GLIDER_RLE))
    cells = world.cells()
    assert cells.dtype == np.int64
    assert cells.shape == (5, 2)
    assert cells.tolist() == [[1, 0], [2, 1], [0, 2], [1, 2], [2, 2]]
    assert world.bbox == (0, 0, 2, 2)


def test_a_glider_moves_one_cell_diagonally_every_four_generations(tmp_path):
    world = gol.load(write(tmp_path / "glider.rle", GLIDER_RLE))
    before = world.cells()
    world.step(4)
    world.step(0)
    assert world.generation == 4
    np.testing.assert_array_equal(world.cells(), before + 1)


def test_every_available_backend_agrees_with_the_serial_reference():
    reference = gol.load("soup:128x128:0.4:7", backend="serial")
    reference.step(100)
    available = [b.name for b in gol.backends() if b.available]
    assert "serial" in available and len(available) > 1
    for name in available:
        world = gol.load("soup:128x128:0.4:7", backend=name)
        world.step(100)
        assert world.backend == name
        np.testing.assert_array_equal(world.cells(), reference.cells(), err_msg=name)


def test_a_gun_stepped_in_chunks_matches_the_bit_reference():
    # A step runs in chunks, between which the stream's gliders may fly on.
    world = gol.load("builtin:gosper-gun", backend="simd")
    reference = gol.load("builtin:gosper-gun", backend="bit")
    world.step(3000)
    reference.step(3000)
    assert world.population == reference.population
    assert world.bbox == reference.bbox
    np.testing.assert_array_equal(world.cells(), reference.cells())


def test_other_threads_run_during_a_step_and_see_the_world_before_or_after_it():
    world = gol.load("soup:256x256:0.5:11")
    stepper = threading.Thread(target=world.step, args=(3000,))
    stepper.start()
    seen = set()
    while stepper.is_alive():
        seen.add(world.generation)
        world.cells()
    stepper.join()
    assert seen <= {0, 3000}
    reference = gol.load("soup:256x256:0.5:11")
    reference.step(3000)
    np.testing.assert_array_equal(world.cells(), reference.cells())


def test_ctrl_c_stops_a_long_step_between_chunks():
    script = (
        "import gol\n"
        "world = gol.load('soup:512x512:0.5:5')\n"
        "try:\n"
        "    print('stepping', flush=True)\n"
        "    world.step(10**12)\n"
        "except KeyboardInterrupt:\n"
        "    print(world.generation, flush=True)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "stepping\n"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()  # a step that ignored Ctrl-C would run on
    assert child.returncode == 0
    assert 0 <= int(out) < 10**12


def test_rule_and_torus_override_the_pattern():
    world = gol.load("builtin:glider", rule="B36/S23", torus=(64, 128))
    assert world.rule == "B36/S23"
    assert world.topology == "torus 64x128"
    world.step(4 * 64)  # a glider crosses the 64-wide torus and returns
    assert world.population == 5
    assert gol.load("builtin:glider", torus="128x64").topology == "torus 128x64"


def test_an_empty_world_has_no_cells_and_no_bbox():
    world = gol.load("builtin:blinker", rule="B/S")
    world.step(1)
    assert world.population == 0
    assert world.bbox is None
    assert world.cells().shape == (0, 2)


def test_save_writes_a_pattern_that_loads_back(tmp_path):
    world = gol.load("builtin:r-pentomino")
    world.step(100)
    for name in ["after.rle", "after.cells.gz"]:
        world.save(tmp_path / name)
        again = gol.load(str(tmp_path / name))
        assert again.population == world.population
        if name.endswith(".rle"):
            assert again.generation == 100
            np.testing.assert_array_equal(again.cells(), world.cells())


def png_size(path):
    """(width, height) from a PNG file's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_render_draws_the_size_zoom_and_window_asked_for(tmp_path):
    glider = gol.load("builtin:glider")
    path = tmp_path / "glider.png"
    glider.render(path)
    assert png_size(path) == (48, 48)  # at most 16 pixels a cell by default
    glider.render(path, zoom=2)
    assert png_size(path) == (6, 6)
    glider.render(str(path), zoom="1:1", window=(0, 0, 9, 4))
    assert png_size(path) == (10, 5)
    glider.render(path, size=(30, 20))
    assert png_size(path) == (30, 20)
    glider.render(path, size="40x10", window="-5,-5,5,5")
    assert png_size(path) == (40, 10)


def test_render_refuses_contradictory_or_malformed_options(tmp_path):
    glider = gol.load("builtin:glider")
    with pytest.raises(gol.UsageError):
        glider.render(tmp_path / "a.png", size=(30, 20), zoom=2)
    with pytest.raises(gol.UsageError, match="^zoom"):
        glider.render(tmp_path / "a.png", zoom=0)
    with pytest.raises(TypeError):
        glider.render(tmp_path / "a.png", window=(0, 0, 9))
    with pytest.raises(TypeError):
        glider.render(tmp_path / "a.png", 2)  # options are keywords only
    with pytest.raises(gol.RuntimeError, match="cannot write"):
        glider.render(tmp_path / "no" / "such" / "dir.png")


def gol_command_error(*args):
    """The one-line message `gol run` prints for these arguments."""
    exe = os.environ.get("GOL_EXE")
    if not exe:
        pytest.skip("GOL_EXE names the gol command under ctest")
    result = subprocess.run([exe, "run", *args, "--gens", "0"], capture_output=True, text=True)
    assert result.returncode != 0
    return result.stderr.splitlines()[0].removeprefix("gol: ")


def test_a_bad_pattern_file_raises_input_error_with_the_commands_message(tmp_path):
    path = write(tmp_path / "bad.rle", "x = 3, y = 3\nbo$2bo$3q!\n")
    with pytest.raises(gol.InputError) as caught:
        gol.load(path)
    assert str(caught.value) == gol_command_error(str(path))
    assert (caught.value.source, caught.value.line) == (str(path), 2)
    assert caught.value.column > 0
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, gol.Error)


def test_missing_files_and_unknown_builtins_are_input_errors():
    with pytest.raises(gol.InputError, match="cannot open pattern file"):
        gol.load("no/such/pattern.rle")
    with pytest.raises(gol.InputError, match="no such built-in pattern"):
        gol.load("builtin:no-such-pattern")


def test_bad_rule_and_torus_name_the_option():
    with pytest.raises(gol.InputError, match=r"^rule: .*neighbour count 9"):
        gol.load("builtin:glider", rule="B9/S23")
    with pytest.raises(gol.InputError, match=r"^topology: torus size 65x64"):
        gol.load("builtin:glider", torus=(65, 64))
    with pytest.raises(TypeError):
        gol.load("builtin:glider", torus=64)


def test_unknown_backend_and_bad_threads_are_usage_errors():
    with pytest.raises(gol.UsageError) as caught:
        gol.load("builtin:glider", backend="abacus")
    assert str(caught.value) == gol_command_error("builtin:glider", "--backend", "abacus")
    with pytest.raises(gol.UsageError, match="threads"):
        gol.load("builtin:glider", threads=-1)


def test_an_unavailable_backend_is_a_runtime_error():
    absent = [b for b in gol.backends() if not b.available]
    if not absent:
        pytest.skip("every backend can run here")
    with pytest.raises(gol.RuntimeError) as caught:
        gol.load("builtin:glider", backend=absent[0].name)
    assert absent[0].unavailable_reason in str(caught.value)
    assert isinstance(caught.value, RuntimeError)


def test_a_step_that_fails_leaves_the_world_unusable(tmp_path):
    # A vertical blinker on the plane's last column: its next phase needs
    # x = 2^62, beyond the plane.
    edge = 2**62 - 1
    path = write(tmp_path / "edge.lif", f"#Life 1.06\n{edge} 0\n{edge} 1\n{edge} 2\n")
    world = gol.load(str(path), backend="simd")
    with pytest.raises(gol.RuntimeError) as failed:
        world.step(3)
    assert "x = 2^62" in str(failed.value)
    assert world.generation == 0
    for read in (lambda: world.population, lambda: world.cells(), lambda: world.step(1)):
        with pytest.raises(gol.RuntimeError) as refused:
            read()
        assert "unusable" in str(refused.value)
        assert "x = 2^62" in str(refused.value)


def test_save_to_an_unknown_extension_is_a_usage_error(tmp_path):
    with pytest.raises(gol.UsageError):
        gol.load("builtin:glider").save(tmp_path / "glider.xyz")


def test_version_and_repr():
    assert gol.__version__.count(".") == 2
    assert "population=5" in repr(gol.load("builtin:glider"))
