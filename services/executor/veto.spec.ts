// The executor's own danger veto: refuses the catastrophic whatever the
// signers said, and leaves ordinary work alone. Pure function, no I/O.
import { describe, expect, it } from "vitest";
import { vetoed } from "./veto.js";

function expectVetoed(commands: readonly string[]): void {
  const missed = commands.filter((c) => vetoed(c) === undefined);
  expect(missed, "commands the veto let through").toEqual([]);
}

function expectAllowed(commands: readonly string[]): void {
  const refused = commands.map((c) => [c, vetoed(c)] as const).filter(([, v]) => v !== undefined);
  expect(refused, "ordinary commands the veto refused").toEqual([]);
}

describe("veto: recursive delete of / and system paths", () => {
  it("refuses rm -rf / in its common spellings", () => {
    expectVetoed([
      "rm -rf /",
      "rm -fr /",
      "rm -Rf /",
      "rm -r -f /",
      "rm -f -r /",
      "rm --recursive --force /",
      "rm -rfv /",
      "rm -rf //",
      "rm -rf /.",
    ]);
  });

  it("refuses rm -rf / with the flags after the path", () => {
    expectVetoed(["rm / -rf", "rm / -r"]);
  });

  it("refuses rm -rf / inside a list, pipeline or subshell and after a prefix", () => {
    expectVetoed([
      "echo start; rm -rf /",
      "true && rm -rf /",
      "(rm -rf /)",
      "sudo rm -rf /",
      "nice -n 19 rm -rf /",
      "cd /tmp && rm -rf / ; echo x",
    ]);
  });

  it("sees through quoting tricks", () => {
    expectVetoed(["r''m -rf /", 'r""m -rf /', "\\rm -rf /", 'rm -rf "/"', "rm -rf '/'", "rm '-rf' /", 'rm "-rf" "/"', "rm -rf \\/"]);
  });

  it("refuses /* and --no-preserve-root", () => {
    expectVetoed(["rm -rf /*", "rm -r /*", "rm -rf --no-preserve-root /", "rm -rf / --no-preserve-root", "rm --no-preserve-root -r /"]);
  });

  it("refuses top-level system directories", () => {
    const dirs = ["bin", "boot", "dev", "etc", "home", "lib", "lib64", "opt", "proc", "root", "run", "sbin", "srv", "sys", "usr", "var"];
    expectVetoed(dirs.flatMap((d) => [`rm -rf /${d}`, `rm -rf /${d}/`, `rm -rf /${d}/*`, `rm -r /${d}`]));
  });

  it("refuses ~ and $HOME", () => {
    expectVetoed(["rm -rf ~", "rm -rf ~/", "rm -rf ~/*", "rm -rf $HOME", "rm -rf ${HOME}", 'rm -rf "$HOME"', "rm -rf $HOME/", "rm -r ~"]);
  });

  it("refuses recursive chmod/chown of /", () => {
    expectVetoed(["chmod -R 777 /", "chown -R nobody /", "chown -R nobody:nogroup /etc"]);
  });
});

describe("veto: devices, filesystems, bombs, sysrq", () => {
  it("refuses mkfs in any form", () => {
    expectVetoed([
      "mkfs.ext4 /dev/sda1",
      "mkfs -t ext4 /dev/sdb",
      "/sbin/mkfs.xfs /dev/nvme0n1",
      "sudo mkfs.vfat /dev/sdc1",
      "m''kfs.ext4 /dev/sda",
    ]);
  });

  it("refuses dd onto a block device", () => {
    expectVetoed([
      "dd if=/dev/zero of=/dev/sda",
      "dd if=/dev/zero of=/dev/sda bs=1M",
      "dd of=/dev/nvme0n1 if=image.img",
      "dd if=x of='/dev/sda'",
      "dd if=x of=/dev/mmcblk0",
    ]);
  });

  it("refuses redirection onto a block device", () => {
    expectVetoed([
      "echo x > /dev/sda",
      "cat /dev/zero >/dev/sda",
      "echo x>/dev/sda",
      "cat img >> /dev/nvme0n1",
      "head -c 1M /dev/urandom > /dev/vda",
    ]);
  });

  it("refuses fork bombs", () => {
    expectVetoed([":(){ :|:& };:", ":(){ :|: & };:", "bomb(){ bomb|bomb& }; bomb", "f() { f | f & }; f"]);
  });

  it("refuses sysrq", () => {
    expectVetoed([
      "echo b > /proc/sysrq-trigger",
      "echo c >/proc/sysrq-trigger",
      "echo 1 > /proc/sys/kernel/sysrq",
      "sysctl kernel.sysrq=1",
    ]);
  });

  it("names the veto that held", () => {
    expect(vetoed("mkfs.ext4 /dev/sda1")).toBe("make-filesystem");
    expect(vetoed(":(){ :|:& };:")).toBe("fork-bomb");
    expect(vetoed("echo b > /proc/sysrq-trigger")).toBe("sysrq");
    expect(vetoed("dd if=/dev/zero of=/dev/sda")).toBe("write-onto-block-device");
  });
});

describe("veto: ordinary commands pass", () => {
  it("does not refuse ordinary work", () => {
    expectAllowed([
      "rm -rf ./build",
      "rm -rf build/",
      "rm -rf /tmp/x/y",
      "rm -rf /home/user/project/build",
      "rm -rf ~/project/build",
      "rm -rf $HOME/.cache/foo",
      "rm -f /tmp/file",
      "rm -rf /var/tmp/x",
      "dd if=/dev/zero of=/tmp/file bs=1k count=1",
      "dd if=/dev/zero of=/dev/null count=1",
      "echo hi",
      "ls -R /etc",
      "ls -la /",
      "cat /etc/hostname",
      "grep -r pattern /etc",
      "find / -maxdepth 1 -name x",
      "git status",
      "echo x > /tmp/out.txt",
      "echo x > /dev/null",
      "chmod -R u+w ./dist",
      "df -h /",
    ]);
  });
});

describe("veto: a recursive delete of everything where a `cd` went", () => {
  it.each([
    ["cd / && rm -rf *", "/tmp"],
    ["cd /etc; rm -rf ./*", "/tmp"],
    ["cd; rm -rf *", "/tmp"],
    ["cd ~ && rm -fr .", "/tmp"],
    ["cd .. && rm -rf *", "/home/dev"],
    ['cd "$X" && rm -rf *', "/tmp"],
    ["cd - ; rm -rf .", "/tmp"],
    ["pushd /usr; rm -fr *", "/tmp"],
    ["(cd /var; rm -rf *)", "/tmp"],
  ])("%s (from %s)", (command, cwd) => {
    expect(vetoed(command, cwd)).toBe("recursive-delete-in-system-dir");
  });

  it.each([
    ["cd build && rm -rf *", "/home/dev/project"],
    ["cd /tmp/agent-sudo-x && rm -rf ./*", "/home/dev"],
    ["rm -rf *", "/home/dev/project/build"],
    ["echo cd / && ls", "/tmp"],
  ])("leaves %s (from %s) alone", (command, cwd) => {
    expect(vetoed(command, cwd)).toBeUndefined();
  });
});

describe("veto: GNU long-option abbreviations", () => {
  it.each(["rm --rec --no-pres -f /", "rm --recu -f /", "rm -f --rec /etc", "chmod --rec 777 /", "chown --recurs nobody /usr"])(
    "%s",
    (command) => {
      expect(vetoed(command, "/tmp")).toBeDefined();
    },
  );
});

describe("veto: disk tools", () => {
  it("refuses partitioning, wiping and formatting", () => {
    expectVetoed([
      "fdisk /dev/sda",
      "echo w | fdisk /dev/sda",
      "fdisk -l /dev/sda; fdisk /dev/sdb",
      "sfdisk /dev/sda < table",
      "sfdisk --delete /dev/sda 1",
      "sfdisk -d /dev/sda --delete",
      "parted /dev/sda mklabel gpt",
      "parted -s /dev/sda print mklabel gpt",
      "parted /dev/sda rm 1",
      "wipefs -a /dev/sda",
      "wipefs --all /dev/sda",
      "wipefs -na /dev/sda",
      "wipefs -o 0x438 /dev/sda",
      "cfdisk /dev/sda",
      "gdisk /dev/sda",
      "sgdisk -Z /dev/sda",
      "sgdisk --zap-all /dev/sda",
      "blkdiscard /dev/nvme0n1",
      "/sbin/fdisk /dev/sda",
      "fdisk -l /dev/sda > /dev/sdb",
    ]);
  });

  it("lets the read-only forms of disk tools through", () => {
    expectAllowed([
      "fdisk -l",
      "fdisk -l /dev/sda",
      "fdisk --list /dev/nvme0n1",
      "/sbin/fdisk -l /dev/sda /dev/sdb",
      "sfdisk -l /dev/sda",
      "sfdisk -d /dev/sda",
      "sfdisk --json /dev/sda",
      "parted -l",
      "parted -s /dev/sda print",
      "parted /dev/sda print",
      "gdisk -l /dev/sda",
      "sgdisk -p /dev/sda",
      "wipefs /dev/sda",
      "wipefs -n /dev/sda",
      "lsblk -f /dev/sda",
    ]);
  });
});
