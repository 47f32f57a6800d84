/*
 * ipaddr.h: the IPv4 addresses and ranges of Karamel's baremetal
 * provider.  An entry of "ip" or "ips" is one address or an inclusive
 * range "first-last" of two full addresses, with optional blanks
 * around each part, as Karamel itself accepts.
 */
#ifndef KARAMEL_IPADDR_H
#define KARAMEL_IPADDR_H

#include <stdint.h>

/* The longest range one entry may expand to (a /12 network). */
#define IP_RANGE_MAX (1UL << 20)

/* ip_range: parse text into [*first, *last]; NULL or why it is wrong. */
const char *ip_range(const char *text, uint32_t *first, uint32_t *last);

/* ip_format: dotted-quad text of addr into buf (16 bytes). */
void ip_format(uint32_t addr, char *buf);

#endif
