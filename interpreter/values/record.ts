// Records made by define-record-type: a type descriptor and instances with a field array.

export class RecordType {
  readonly name: string;
  readonly fields: readonly string[];
  constructor(name: string, fields: readonly string[]) {
    this.name = name;
    this.fields = fields;
  }
}

export class Record {
  readonly rtd: RecordType;
  readonly f: any[];
  constructor(rtd: RecordType, f: any[]) {
    this.rtd = rtd;
    this.f = f;
  }
}
