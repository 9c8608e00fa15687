"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTRPC } from "../../../src/dashboard/trpc";
import { FormError, TextAreaField } from "../../_components/field";
import { formFailure } from "../../_components/form-failure";
import { QueryView } from "../../_components/states";
import { useSignedInMember } from "../../_components/use-signed-in-member";

/** The tenant's own screening denylist, beside the service-wide one (CONTRACT §6). */
export function Denylist() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.policies.getScreeningDenylist.queryOptions());
  const administer = useSignedInMember().can("administer");
  const [text, setText] = useState("");
  useEffect(() => {
    if (list.data) setText(list.data.entries.map((e) => (e.label ? `${e.address} ${e.label}` : e.address)).join("\n"));
  }, [list.data]);
  const save = useMutation(
    trpc.policies.replaceScreeningDenylist.mutationOptions({
      onSuccess: (saved) => queryClient.setQueryData(trpc.policies.getScreeningDenylist.queryKey(), saved),
    }),
  );
  const failure = formFailure(save.error, ["entries"]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const entries = text
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .map((line) => {
        const [address, ...label] = line.split(/\s+/);
        return { address: address!, label: label.join(" ") };
      });
    save.mutate({ entries });
  }

  return (
    <section className="panel" aria-labelledby="denylist-heading">
      <h2 id="denylist-heading">Screening denylist</h2>
      <p className="small">
        Transfers to these addresses are blocked by screening (<code>REJECTED_AML_SCREENING</code>), whatever the policy says.
      </p>
      <QueryView query={list} what="the denylist">
        {() => (
          <form onSubmit={submit}>
            <TextAreaField
              label="Denied addresses"
              value={text}
              onChange={(e) => setText(e.target.value)}
              readOnly={!administer}
              spellCheck={false}
              error={failure.field("entries")}
              hint="One a line: the address, then an optional label."
            />
            <FormError message={failure.form} />
            {administer && (
              <button type="submit" disabled={save.isPending}>
                Save denylist
              </button>
            )}
            {save.isSuccess && <span role="status"> Saved ({save.data.entries.length} addresses).</span>}
          </form>
        )}
      </QueryView>
    </section>
  );
}
