package io.symbolicate.symbols.io;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.Deflater;

/**
 * Single-file cabinets written here, laid out by the cabinet format's documentation: stored or
 * MSZIP blocks of 32 KiB, each MSZIP block deflated with the previous block as its dictionary
 * (as {@code makecab} writes them), for the hostile-input tests and the fuzz seeds.
 */
final class CabBytes {
  private CabBytes() {}

  static byte[] cab(String name, byte[] content, int compression) {
    List<byte[]> blocks = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    byte[] prev = null;
    for (int off = 0; off < content.length || off == 0; off += CabFile.MSZIP_BLOCK) {
      byte[] chunk =
          Arrays.copyOfRange(content, off, Math.min(content.length, off + CabFile.MSZIP_BLOCK));
      sizes.add(chunk.length);
      if (compression == 0) {
        blocks.add(chunk);
      } else {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        if (prev != null) {
          d.setDictionary(prev);
        }
        d.setInput(chunk);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write('C');
        out.write('K');
        byte[] buf = new byte[4096];
        while (!d.finished()) {
          out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        blocks.add(out.toByteArray());
      }
      prev = chunk;
      if (content.length == 0) {
        break;
      }
    }
    return cab(name, content.length, blocks, sizes, compression);
  }

  /** A cabinet of one file in one folder of the given data blocks and {@code typeCompress}. */
  static byte[] cab(
      String name, int length, List<byte[]> blocks, List<Integer> sizes, int compression) {
    byte[] nameBytes = (name + "\0").getBytes(StandardCharsets.US_ASCII);
    int header = 36;
    int folder = 8;
    int files = 16 + nameBytes.length;
    int dataStart = header + folder + files;
    int total = dataStart;
    for (byte[] b : blocks) {
      total += 8 + b.length;
    }
    ByteBuffer b = ByteBuffer.allocate(total).order(ByteOrder.LITTLE_ENDIAN);
    b.put("MSCF".getBytes(StandardCharsets.US_ASCII)).putInt(0).putInt(total).putInt(0);
    b.putInt(header + folder).putInt(0).put((byte) 3).put((byte) 1);
    b.putShort((short) 1).putShort((short) 1).putShort((short) 0).putShort((short) 0);
    b.putShort((short) 0);
    b.putInt(dataStart).putShort((short) blocks.size()).putShort((short) compression);
    b.putInt(length).putInt(0).putShort((short) 0).putShort((short) 0);
    b.putShort((short) 0).putShort((short) 0x20).put(nameBytes);
    for (int i = 0; i < blocks.size(); i++) {
      b.putInt(0).putShort((short) blocks.get(i).length).putShort((short) (int) sizes.get(i));
      b.put(blocks.get(i));
    }
    return b.array();
  }
}
