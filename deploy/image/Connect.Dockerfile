# Kafka Connect with the S3 source connector's plugin, for the KafkaConnect resource's spec.image.
# Build the plugin archive first (connectors/s3-source: mvn -pl connectors/s3-source -am package),
# then from the repository's root:
#   docker build -f deploy/image/Connect.Dockerfile -t symbolicate-connect:0.1.0-SNAPSHOT .
# STRIMZI_KAFKA_IMAGE: the Kafka image of your Strimzi release and Kafka version.
ARG STRIMZI_KAFKA_IMAGE=quay.io/strimzi/kafka:latest-kafka-4.1.0

FROM eclipse-temurin:17-jdk AS plugin
COPY connectors/s3-source/target/symbolicate-s3-source-connector-*.zip /tmp/plugin.zip
RUN mkdir -p /plugins && cd /plugins && jar xf /tmp/plugin.zip

FROM ${STRIMZI_KAFKA_IMAGE}
# plugin.path of Strimzi's Connect image
COPY --from=plugin /plugins/ /opt/kafka/plugins/
