/* The script language's byte attribution (docs/script.md): op number INDEX
 * writes only this byte, so a reader can tell which op wrote each byte it
 * received. Shared by the C targets and the harness's checks. */
#ifndef FLUSHCHECK_PAYLOAD_H
#define FLUSHCHECK_PAYLOAD_H

static inline char flushcheck_payload_char(int index) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  return alphabet[index % 62];
}

#endif
