// Types for html-encoding-sniffer 7, which ships none: the HTML Standard's
// encoding sniffing algorithm (BOM, transport layer label, meta prescan,
// default). Returns an Encoding Standard name ("UTF-8", "windows-1252").
declare module "html-encoding-sniffer" {
  interface SnifferOptions {
    xml?: boolean;
    transportLayerEncodingLabel?: string;
    defaultEncoding?: string;
    maxPrescanBytes?: number;
  }
  function htmlEncodingSniffer(bytes: Uint8Array, options?: SnifferOptions): string;
  export default htmlEncodingSniffer;
}
