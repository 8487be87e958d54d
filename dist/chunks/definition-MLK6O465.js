import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-JBRXYLNK.js";import"./chunk-K3D5RFA3.js";import"./chunk-Q4CIDTDA.js";import"./chunk-4NTM33NK.js";import"./chunk-LF2U5UYW.js";import"./chunk-C5G6GREE.js";import"./chunk-X64JDYJL.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
