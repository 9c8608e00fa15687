/**
 * The deposits benchmark's tenants and wallets, inserted with SQL in a few statements (the API
 * would take minutes for 100,000 wallets and is not what is measured): TENANTS tenants, each with a
 * vault on the network and WALLETS ÷ TENANTS wallets placed there, the three types in turn. Wallet
 * i's address is `trackedAddress(i)`, so the benchmark's transfers can be signed before the
 * database exists. Half the tenants have a TOKEN asset for the benchmark's token (their token
 * deposits get that asset; the others' are recorded with assetId null).
 */
import type { NetworkCode } from "@qc/chain";
import { sql, type Database } from "@qc/db";

/** Wallet i's address: 0xdd…, then i in hex (clear of precompiles and of every key-derived address in the run). */
export function trackedAddress(i: number): `0x${string}` {
  return `0xdd${i.toString(16).padStart(38, "0")}`;
}

/** An address no wallet has: the same scheme under another prefix. */
export function untrackedAddress(i: number): `0x${string}` {
  return `0xee${i.toString(16).padStart(38, "0")}`;
}

export async function insertDepositWallets(
  db: Database,
  params: { networkCode: NetworkCode; tenants: number; wallets: number; tokenAddress: string },
): Promise<void> {
  const perTenant = Math.ceil(params.wallets / params.tenants);
  await db.execute(sql`
    insert into tenants (id, name, status)
    select gen_random_uuid(), 'Deposits bench ' || g, 'VERIFIED' from generate_series(1, ${params.tenants}) g`);
  await db.execute(sql`
    insert into vaults (id, tenant_id, network_code, name)
    select gen_random_uuid(), id, ${params.networkCode}, 'deposits' from tenants where name like 'Deposits bench %'`);
  await db.execute(sql`
    insert into assets (id, tenant_id, network_code, kind, symbol, name, decimals, contract_address)
    select gen_random_uuid(), t.id, ${params.networkCode}, 'TOKEN', 'DBT', 'Deposits bench token', 6, ${params.tokenAddress}
    from tenants t where t.name like 'Deposits bench %' and substr(t.name, 16)::int % 2 = 0`);
  // Wallet i belongs to tenant i ÷ perTenant; types in turn.
  await db.execute(sql`
    with numbered as (
      select v.id as vault_id, v.tenant_id, (substr(t.name, 16)::int - 1) as n
      from vaults v join tenants t on t.id = v.tenant_id where t.name like 'Deposits bench %'
    ), made as (
      insert into wallets (id, tenant_id, vault_id, type, address, public_key)
      select gen_random_uuid(), numbered.tenant_id, numbered.vault_id,
        (array['WATCH_ONLY', 'REGISTERED', 'SIGNER_MANAGED'])[1 + i % 3]::wallet_type,
        '0xdd' || lpad(to_hex(i), 38, '0'),
        case when i % 3 = 0 then null else '0xab' end
      from numbered, generate_series(numbered.n * ${perTenant}, numbered.n * ${perTenant} + ${perTenant} - 1) i
      where i < ${params.wallets}
      returning id, tenant_id, vault_id
    )
    insert into wallet_network_links (id, tenant_id, wallet_id, network_code, vault_id)
    select gen_random_uuid(), tenant_id, id, ${params.networkCode}, vault_id from made`);
  await db.execute(sql`analyze`);
}
