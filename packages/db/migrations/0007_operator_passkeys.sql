CREATE TABLE "operator_passkeys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "operator_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"require_operator_passkey" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_settings_one_row" CHECK ("operator_settings"."id")
);
--> statement-breakpoint
CREATE TABLE "operator_webauthn_challenges" (
	"id" uuid PRIMARY KEY NOT NULL,
	"operator_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"challenge" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "operator_webauthn_challenges_purpose_known" CHECK ("operator_webauthn_challenges"."purpose" in ('REGISTER', 'LOGIN'))
);
--> statement-breakpoint
ALTER TABLE "operator_passkeys" ADD CONSTRAINT "operator_passkeys_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operator_webauthn_challenges" ADD CONSTRAINT "operator_webauthn_challenges_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "operator_passkeys_credential_id_unique" ON "operator_passkeys" USING btree ("credential_id");--> statement-breakpoint
CREATE INDEX "operator_passkeys_operator_idx" ON "operator_passkeys" USING btree ("operator_id");--> statement-breakpoint
CREATE INDEX "operator_webauthn_challenges_operator_idx" ON "operator_webauthn_challenges" USING btree ("operator_id");