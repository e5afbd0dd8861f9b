package io.symbolicate.api;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** The API's JSON mapper: decimals kept exactly as sent (Mozilla's v4 echoes "1.00000" back). */
public final class Json {
  public static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
          .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
          .build();

  private Json() {}
}
