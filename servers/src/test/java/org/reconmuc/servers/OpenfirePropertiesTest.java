package org.reconmuc.servers;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** System properties given to a fresh Openfire go into openfire.xml, where its autosetup copies them. */
class OpenfirePropertiesTest {

    @Test
    void propertiesSharingAPrefixShareOneElementAndValuesAreEscaped() {
        String config = "<jive>\n  <locale>en</locale>\n</jive>\n";
        String written = OpenfireServer.withProperties(config, Map.of(
                "reconmuc.history-size", "7", "reconmuc.subdomain", "chat", "plugins.loading.monitor.interval", "1",
                "odd.value", "a<b&c"));
        assertThat(written).startsWith("<jive>\n  <locale>en</locale>\n")
                .endsWith("</jive>\n")
                .contains("<reconmuc><history-size>7</history-size>\n<subdomain>chat</subdomain>\n</reconmuc>")
                .contains("<plugins><loading><monitor><interval>1</interval>\n</monitor>\n</loading>\n</plugins>")
                .contains("<odd><value>a&lt;b&amp;c</value>");
        assertThat(written.split("<reconmuc>", -1)).as("one <reconmuc>: Openfire reads only the first").hasSize(2);
    }
}
