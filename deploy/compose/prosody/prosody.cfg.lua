-- Prosody 0.12 for ReConMUC in a container (deploy/compose/compose.yaml), configured by environment:
--   XMPP_DOMAIN                  the server's domain (users are user@XMPP_DOMAIN)            (required)
--   RECONMUC_DOMAIN              ReConMUC's domain, its XEP-0114 component slot              (required)
--   RECONMUC_SECRET              the component secret ReConMUC gives                         (required)
--   XMPP_C2S_REQUIRE_ENCRYPTION  "false" lets clients in without TLS (tests; behind a TLS-terminating
--                                proxy); otherwise put DOMAIN.crt/.key in /etc/prosody/certs (true)
-- ENV_NAME reads the environment variable NAME (Prosody's configmanager).
local function required(name, value)
	if value == nil or value == "" then
		error("set the environment variable " .. name, 0)
	end
	return value
end
local domain = required("XMPP_DOMAIN", ENV_XMPP_DOMAIN)
local reconmuc_domain = required("RECONMUC_DOMAIN", ENV_RECONMUC_DOMAIN)
local reconmuc_secret = required("RECONMUC_SECRET", ENV_RECONMUC_SECRET)
local require_encryption = ENV_XMPP_C2S_REQUIRE_ENCRYPTION ~= "false"

-- Logs to the console: the container's log.
log = { { levels = { min = "info" }, to = "console" } }
data_path = "/var/lib/prosody"
certificates = "/etc/prosody/certs"
plugin_paths = { "/usr/local/lib/prosody/modules" }   -- mod_component_multicast.lua

-- Clients on 5222; ReConMUC on 5347, on the compose network only (the file publishes 5222 alone).
c2s_ports = { 5222 }
component_ports = { 5347 }
component_interfaces = { "*" }
-- No federation in this file: s2s would need its own port, certificates and DNS.
modules_disabled = { "s2s" }

modules_enabled = {
	"disco"; "roster"; "saslauth"; "tls"; "ping"; "carbons"; "smacks"; "csi_simple"; "blocklist";
}
c2s_require_encryption = require_encryption
s2s_require_encryption = true
authentication = "internal_hashed"   -- accounts: prosodyctl register USER DOMAIN PASSWORD
storage = "internal"

VirtualHost(domain)

-- ReConMUC attaches here (XEP-0114).
Component(reconmuc_domain)
	component_secret = reconmuc_secret

-- XEP-0033 multicast for ReConMUC: a room's broadcast crosses the component link once and Prosody
-- makes the copies. Only ReConMUC may use it.
Component("multicast." .. domain) "component_multicast"
	component_multicast_trusted = { reconmuc_domain }
	component_multicast_max_addresses = 1000
