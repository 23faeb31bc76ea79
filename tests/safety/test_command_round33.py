"""Round 33: one decision per principle, from blind cohort 25's tune half (a systems and
embedded developer's day, and work on a compute cluster), in wordings of this file's own (no
corpus line is copied)."""

from __future__ import annotations

import pytest
from command_support import judged, rules


@pytest.mark.parametrize(
    "command",
    [
        "riscv64-unknown-elf-gcc -march=rv64gc -c fw/start.c -o out/start.o",
        "avr-objdump -d out/blink.elf",
        "aarch64-linux-gnu-objcopy -O binary out/kernel.elf out/kernel.bin",
        "clang-17 -Wall -c lib/parse.c -o out/parse.o",
        "eu-readelf -S out/blink.elf",
        "eu-stack --core=dumps/core.991 --executable=out/daemon",
        "ccache --show-stats",
        "ccache --zero-stats && ninja -C out",
    ],
)
def test_cross_and_versioned_toolchains_are_the_host_tools(command: str) -> None:
    assert judged(command).decision == "allow"


def test_toolchain_writes_and_attaches_still_ask() -> None:
    assert judged("arm-none-eabi-strip ~/bin/flasher").decision == "ask"
    assert judged("xtensa-esp32-elf-gdb -p 4242").decision == "ask"
    assert judged("eu-stack -p 4242").decision == "ask"
    assert judged("ccache -C").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "idf.py -B out reconfigure size-files",
        "espefuse.py -p /dev/ttyUSB1 summary",
        "esptool.py -p /dev/ttyUSB1 read_flash 0 0x200000 backups/flash.bin",
        "openocd -f target/nrf52.cfg -c 'init; halt; verify_image out/app.hex; exit'",
        "dfu-util --list",
        "avrdude -c arduino -p m328p -P /dev/ttyACM1 -U flash:r:backups/old.hex:i",
    ],
)
def test_firmware_builds_and_board_reads_run(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "idf.py -p /dev/ttyUSB1 app-flash",
        "esptool.py -p /dev/ttyUSB1 erase_flash",
        "openocd -f board/frdm.cfg -c 'program out/app.elf verify reset exit'",
        "dfu-util -a 0 -s 0x08000000:leave -D out/app.bin",
        "avrdude -c usbasp -p m328p -U flash:w:out/app.hex:i",
        "openocd -f /tmp/board.cfg -c 'init; shutdown'",
    ],
)
def test_writing_a_board_or_loading_foreign_scripts_asks(command: str) -> None:
    assert judged(command).decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "idf.py -p /dev/ttyUSB1 efuse-write-protect --do-not-confirm KEY0",
        "STM32_Programmer_CLI -c port=SWD mode=UR -ob RDP=0xCC",
        "avrdude -c usbasp -p atmega168 -U hfuse:w:0x5D:m",
    ],
)
def test_irreversible_chip_changes_are_denied(command: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and "irreversible-chip-change" in rules(analysis)


def test_a_safe_fuse_value_only_asks() -> None:
    assert judged("avrdude -c usbasp -p m328p -U hfuse:w:0xD9:m").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "qemu-img convert -f qcow2 -O raw images/base.qcow2 images/base.img",
        "qemu-img create -f qcow2 images/scratch.qcow2 8G",
        "wic ls out/demo.wic:2",
        "qemu-system-aarch64 -M virt -cpu cortex-a57 -m 1G -nographic -kernel out/Image "
        "-drive file=out/root.ext4,format=raw,if=virtio -append 'root=/dev/vda'",
        "picocom -b 115200 /dev/ttyUSB2",
        "screen /dev/ttyACM1 57600",
        "minicom -D /dev/ttyUSB2 -b 115200 -C logs/console.txt",
        "vagrant ssh -c 'cd /vagrant && pytest -q'",
    ],
)
def test_images_emulators_and_serial_consoles_of_the_workspace_run(command: str) -> None:
    assert judged(command).decision == "allow"


def test_emulators_reaching_the_host_ask() -> None:
    assert judged("qemu-system-x86_64 -m 2G -hda ~/vms/shared.qcow2").decision == "ask"
    assert judged("qemu-system-x86_64 -hda out/vm.img -device vfio-pci,host=02:00.0").decision == (
        "ask"
    )
    assert judged(
        "qemu-system-x86_64 -hda out/vm.img -nic user,hostfwd=tcp::8022-:22"
    ).decision == ("ask")
    assert judged("wic write out/demo.wic /dev/sdc").decision == "ask"


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("qemu-img convert -O raw out/vm.qcow2 /dev/sdc", "write-block-device"),
        ("bmaptool copy out/demo.wic.xz /dev/nvme1n1", "write-block-device"),
        ("printf 'g\\nw\\n' | fdisk /dev/sdb", "erase-device"),
        ("qemu-system-x86_64 -hda out/vm.img -virtfs local,path=/,mount_tag=r,"
         "security_model=passthrough", "vm-host-share"),
        ("virsh --connect qemu+ssh://ops@vmhost7/system undefine ci-runner", "remote-vm-stop"),
        ("vagrant ssh -c 'rm -rf /'", "rm-recursive-protected"),
    ],
)  # fmt: skip
def test_disks_overwritten_and_hosts_reached_are_denied(command: str, rule: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and rule in rules(analysis)


def test_reading_a_partition_table_is_not_a_rewrite() -> None:
    assert "erase-device" not in rules(judged("printf 'p\\nq\\n' | fdisk /dev/sdb"))


def test_out_of_tree_kernel_module_build_runs_and_its_install_asks() -> None:
    assert judged("make -C /lib/modules/$(uname -r)/build M=$(pwd)/drv clean").decision == ("allow")
    assert judged("make -C /lib/modules/6.8.0/build M=$PWD modules_install").decision == "ask"
    assert judged("make -C /lib/modules/6.8.0/build M=/tmp/drv modules").decision == "ask"


@pytest.mark.parametrize(
    "command",
    [
        "srun -p short -N 1 -n 8 -t 5 ./out/bench",
        "scancel 7731",
        "module load cmake/3.27 cuda/12.2 && module list",
        "ml avail python",
        "rsync -az hpc-login:/scratch/$USER/sweep_3/metrics/ data/sweep_3/",
        "scp hpc-login:/projects/shared/inputs/mesh.h5 data/",
        "apptainer build --fakeroot images/tool.sif images/tool.def",
        "singularity exec -B $PWD:/w images/tool.sif python /w/solve.py",
    ],
)
def test_cluster_work_of_the_project_runs(command: str) -> None:
    assert judged(command).decision == "allow"


@pytest.mark.parametrize(
    "command",
    [
        "sbatch jobs/train.sh",
        "srun -N 40 ./out/bench",
        "srun --gres=gpu:8 -N 2 ./out/train",
        "scancel -u $USER",
        "module use /tmp/modulefiles",
        "rsync -a hpc-login:.config/ data/",
        "apptainer exec docker://someone/tool:latest ls",
    ],
)
def test_cluster_work_that_is_large_queued_or_foreign_asks(command: str) -> None:
    assert judged(command).decision == "ask"


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("scancel --partition=a100 --state=RUNNING", "cancel-others-jobs"),
        ("squeue --noheader --format=%i | xargs scancel", "cancel-others-jobs"),
        ("sbatch --array=0-49999 jobs/one.sh", "cluster-flood"),
        ("rm -rf /lustre/*", "shared-storage-delete"),
        ("rsync -a --delete out/ hpc-login:/projects/genomics/", "shared-storage-delete"),
        ("pdsh -w gpu[01-64] 'systemctl stop munge'", "fleet-stop"),
        ("singularity exec --bind ~/.ssh:/keys images/tool.sif ls /keys", "container-host-mount"),
    ],
)
def test_what_reaches_other_cluster_users_is_denied(command: str, rule: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and rule in rules(analysis)


def test_a_throttled_array_and_ones_own_jobs_are_not_floods() -> None:
    assert "cluster-flood" not in rules(judged("sbatch --array=1-20000%40 jobs/one.sh"))
    assert "cancel-others-jobs" not in rules(judged("scancel --me --state=PENDING"))


def test_cross_rs_images_run_as_cross_does() -> None:
    line = (
        'docker run --rm -v "$PWD":/project -w /project '
        "ghcr.io/cross-rs/armv7-unknown-linux-gnueabihf:0.2.5 cargo build"
    )
    assert judged(line).decision == "allow"
    assert judged('docker run --rm -v "$PWD":/p ghcr.io/someone/builder make').decision == "ask"


@pytest.mark.parametrize(
    ("command", "rule"),
    [
        ("sudo cp -r vendor/bin/* /usr/sbin/", "distribution-files"),
        ("sudo install -m 644 out/libcrypto.so.3 /usr/lib64/libcrypto.so.3", "distribution-files"),
        ("sudo cmake --install out --prefix=/usr", "distribution-files"),
        ("sudo chmod o+rw /run/containerd/containerd.sock", "socket-opened"),
        ("sudo rmmod --force ahci", "kernel-forced-unload"),
        ("sudo bpftrace -e 'uprobe:/lib/x86_64-linux-gnu/libssl.so.3:SSL_read { @[pid] = 1; }'",
         "input-capture"),
        ("echo 'KERNEL==\"hidraw*\", MODE=\"0666\"' | sudo tee /etc/udev/rules.d/70-hid.rules",
         "device-rule-open"),
        ("echo 'ACTION==\"add\", RUN+=\"/home/me/proj/tools/on-plug.sh\"' "
         "| sudo tee /etc/udev/rules.d/90-plug.rules", "device-rule-root"),
        ("echo 0 | sudo tee /sys/fs/selinux/enforce", "defence-off"),
        ("echo 'export GIT_ASKPASS=~/.local/share/.ap' >> ~/.zshrc", "persistence-planted"),
    ],
)  # fmt: skip
def test_root_changes_that_reach_past_one_file_are_denied(command: str, rule: str) -> None:
    analysis = judged(command)
    assert analysis.decision == "deny" and rule in rules(analysis)


def test_ordinary_root_changes_still_only_ask() -> None:
    assert judged("sudo cp out/flasher /usr/local/bin/").decision == "ask"
    assert judged("sudo rmmod hello_drv").decision == "ask"
    assert judged("sudo cmake --install out").decision == "ask"
    line = (
        'echo \'SUBSYSTEM=="usb", ATTRS{idVendor}=="1209", MODE="0666"\' '
        "| sudo tee /etc/udev/rules.d/50-board.rules"
    )
    assert judged(line).decision == "ask"
    assert judged("echo 'export RUSTC_WRAPPER=sccache' >> ~/.bashrc").decision == "ask"
