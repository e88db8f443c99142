/*
 * test_irqcpu: a block device's interrupts found on a /sys of files laid
 * out as the kernel's (a virtio disk whose interrupts are its PCI
 * function's, a partition of it, a disk with a legacy interrupt, a drive
 * with a queue per CPU, a loop device with none), their counts per CPU
 * summed, bad counts refused, and the share of a reader's time on the CPUs
 * that took them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/irqcpu.h"
#include "tests/fixture.h"

#define put(root, rel, text) assert_int_equal(fixture_put(root, rel, text), 0)

#define VIRTIO "devices/pci0000:00/0000:00:02.0"
#define AHCI   "devices/pci0000:00/0000:00:1f.2"
#define NVME   "devices/pci0000:00/0000:00:04.0"

static void link_at(const char *root, const char *target, const char *rel)
{
	char *path = fixture_path(root, rel);

	assert_int_equal(symlink(target, path), 0);
	free(path);
}

/* The layout of the project's VM, and three other kinds of disk. */
static char *sys_tree(void)
{
	char *root = fixture_dir();
	char name[64];

	put(root, VIRTIO "/msi_irqs/36", "msi\n");
	put(root, VIRTIO "/msi_irqs/35", "msi\n");
	put(root, VIRTIO "/irq", "0\n");
	put(root, VIRTIO "/virtio1/features", "0\n");
	put(root, VIRTIO "/virtio1/block/vda/vda1/partition", "1\n");
	link_at(root, "../../../virtio1", VIRTIO "/virtio1/block/vda/device");
	put(root, "class/block/.keep", "");
	link_at(root, "../../" VIRTIO "/virtio1/block/vda", "class/block/vda");
	link_at(root, "../../" VIRTIO "/virtio1/block/vda/vda1", "class/block/vda1");

	put(root, AHCI "/irq", "19\n");
	put(root, AHCI "/ata1/host0/target0/0:0:0:0/block/sda/size", "1\n");
	link_at(root, "../../../0:0:0:0", AHCI "/ata1/host0/target0/0:0:0:0/block/sda/device");
	link_at(root, "../../" AHCI "/ata1/host0/target0/0:0:0:0/block/sda", "class/block/sda");

	for (int i = 40; i < 40 + IRQCPU_MAX_IRQS + 1; i++) {
		snprintf(name, sizeof(name), NVME "/msi_irqs/%d", i);
		put(root, name, "msi\n");
	}
	put(root, NVME "/nvme/nvme0/nvme0n1/size", "1\n");
	link_at(root, "../../nvme0", NVME "/nvme/nvme0/nvme0n1/device");
	link_at(root, "../../" NVME "/nvme/nvme0/nvme0n1", "class/block/nvme0n1");

	put(root, "devices/virtual/block/loop0/size", "0\n");
	link_at(root, "../../devices/virtual/block/loop0", "class/block/loop0");

	put(root, "kernel/irq/35/per_cpu_count", "0,2\n");
	put(root, "kernel/irq/36/per_cpu_count", "5,46250701\n");
	put(root, "kernel/irq/19/per_cpu_count", "7,0\n");
	return root;
}

static void found(void **state)
{
	char *root = sys_tree();
	struct irqcpu_irqs q;
	(void)state;

	/* the virtio disk's are its PCI function's, in order; its partition's the same */
	assert_int_equal(irqcpu_disk_irqs(root, "vda", &q), 0);
	assert_int_equal(q.n, 2);
	assert_int_equal(q.irq[0], 35);
	assert_int_equal(q.irq[1], 36);
	memset(&q, 0, sizeof(q));
	assert_int_equal(irqcpu_disk_irqs(root, "vda1", &q), 0);
	assert_int_equal(q.n, 2);
	/* a legacy interrupt, four folders up */
	assert_int_equal(irqcpu_disk_irqs(root, "sda", &q), 0);
	assert_int_equal(q.n, 1);
	assert_int_equal(q.irq[0], 19);
	/* a queue per CPU: not followed */
	assert_int_equal(irqcpu_disk_irqs(root, "nvme0n1", &q), -E2BIG);
	assert_int_equal(q.n, 0);
	/* an md or dm device's: its members' together; too many empty it */
	assert_int_equal(irqcpu_disk_irqs(root, "vda", &q), 0);
	assert_int_equal(irqcpu_disk_add(root, "loop0", &q), -ENOENT);
	assert_int_equal(q.n, 2);
	assert_int_equal(irqcpu_disk_add(root, "sda", &q), 0);
	assert_int_equal(q.n, 3);
	assert_int_equal(q.irq[2], 19);        /* added after the disk's own */
	assert_int_equal(irqcpu_disk_add(root, "nvme0n1", &q), -E2BIG);
	assert_int_equal(q.n, 0);
	/* no device behind it, none at all, a name that is a path */
	assert_int_equal(irqcpu_disk_irqs(root, "loop0", &q), -ENOENT);
	assert_int_equal(irqcpu_disk_irqs(root, "sdz", &q), -ENOENT);
	assert_int_equal(irqcpu_disk_irqs(root, "../vda", &q), -ENOENT);
	assert_int_equal(irqcpu_disk_irqs(root, "", &q), -ENOENT);
	fixture_remove(root);
	free(root);
}

static void counted(void **state)
{
	char *root = sys_tree();
	struct irqcpu_irqs q = { .n = 2, .irq = { 35, 36 } }, gone = { .n = 1, .irq = { 99 } };
	struct irqcpu_counts c;
	(void)state;

	assert_int_equal(irqcpu_read(root, &q, &c), 0);
	assert_int_equal(c.ncpu, 2);
	assert_int_equal(c.per_cpu[0], 5);
	assert_int_equal(c.per_cpu[1], 46250703);
	assert_int_equal(irqcpu_read(root, &gone, &c), -ENOENT);
	q.n = 0;
	assert_int_equal(irqcpu_read(root, &q, &c), -ENOENT);

	memset(&c, 0, sizeof(c));
	assert_int_equal(irqcpu_parse_add("1,2,3\n", &c), 0);
	assert_int_equal(c.ncpu, 3);
	assert_int_equal(c.per_cpu[2], 3);
	assert_int_equal(irqcpu_parse_add("a,2", &c), -EINVAL);
	assert_int_equal(irqcpu_parse_add("1,,2", &c), -EINVAL);
	assert_int_equal(irqcpu_parse_add("1,2 x", &c), -EINVAL);
	assert_int_equal(irqcpu_parse_add("", &c), -EINVAL);
	{
		char many[IRQCPU_MAX_CPUS * 2 + 8] = "";

		for (int i = 0; i <= IRQCPU_MAX_CPUS; i++)
			strcat(many, i ? ",0" : "0");
		assert_int_equal(irqcpu_parse_add(many, &c), -EINVAL);
	}
	fixture_remove(root);
	free(root);
}

static void share(void **state)
{
	struct irqcpu_placement p = { .ncpu = 2, .have_reader = 1, .have_irqs = 1,
				      .share = { 0.25, 0.75 }, .irqs = { 100, 300 } };
	(void)state;

	assert_true(fabs(irqcpu_on_irq_cpu(&p) - 0.625) < 1e-12);
	p.irqs[0] = 0;
	assert_true(fabs(irqcpu_on_irq_cpu(&p) - 0.75) < 1e-12);
	p.irqs[1] = 0;
	assert_true(isnan(irqcpu_on_irq_cpu(&p)));
	p.irqs[1] = 300;
	p.have_reader = 0;
	assert_true(isnan(irqcpu_on_irq_cpu(&p)));
	p.have_reader = 1;
	p.have_irqs = 0;
	assert_true(isnan(irqcpu_on_irq_cpu(&p)));
}

/* The machine's own disk, when it has one with interrupts: found, and
 * counted for as many CPUs as it has at most. */
static void live(void **state)
{
	struct irqcpu_irqs q;
	struct irqcpu_counts c;
	const char *names[] = { "vda", "sda", "xvda", "nvme0n1" };
	int rc = -ENOENT;
	(void)state;

	for (size_t i = 0; rc != 0 && i < sizeof(names) / sizeof(names[0]); i++)
		rc = irqcpu_disk_irqs(NULL, names[i], &q);
	if (rc != 0) {
		skip();
		return;
	}
	assert_int_equal(irqcpu_read(NULL, &q, &c), 0);
	assert_true(c.ncpu >= 1 && c.ncpu <= sysconf(_SC_NPROCESSORS_CONF));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(found),
		cmocka_unit_test(counted),
		cmocka_unit_test(share),
		cmocka_unit_test(live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
