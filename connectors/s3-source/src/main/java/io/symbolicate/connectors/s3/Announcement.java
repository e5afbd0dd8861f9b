package io.symbolicate.connectors.s3;

import io.symbolicate.symbols.table.ModuleRef;
import java.util.Map;

/**
 * A new or changed symbol file to announce: the module it stands for, what S3 said of the
 * object, and the source offset of the prefix once this announcement is delivered.
 */
record Announcement(
    ModuleRef module,
    String objectKey,
    String etag,
    long size,
    long lastModifiedMillis,
    Map<String, Object> offset) {}
